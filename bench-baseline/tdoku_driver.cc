// sudoku-bot's benchmark driver for tdoku (this file is sudoku-bot's, MIT; tdoku itself is
// compiled in from the directory the benchmark is given and is not part of the project).
//
// Reads puzzles on stdin (one a line, blank and '#' lines skipped), solves each with
// TdokuEnumerate counting up to 2 solutions, and prints one line a puzzle as
// `sudoku-bot solve` does: the solution when unique, else `unsolvable` or `multiple`.
// On stderr it prints `solve-seconds S`: the thread CPU time of the solving loop alone
// (the in-process figure; reading and printing excluded).
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <string>
#include <vector>

#include "include/tdoku.h"

static double thread_cpu_seconds() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::vector<std::string> puzzles;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.empty() || line[0] == '#') continue;
        puzzles.push_back(line);
    }
    std::string out;
    out.reserve(puzzles.size() * 82);
    struct Acc {
        char sol[81];
        int seen;
    } acc;
    double start = thread_cpu_seconds();
    for (const std::string &p : puzzles) {
        acc.seen = 0;
        size_t n = TdokuEnumerate(
            p.c_str(), 2,
            [](const char *s, void *a) {
                Acc *acc = (Acc *)a;
                if (acc->seen++ == 0) memcpy(acc->sol, s, 81);
            },
            &acc);
        if (n == 1) {
            out.append(acc.sol, 81);
            out.push_back('\n');
        } else if (n == 0) {
            out += "unsolvable\n";
        } else {
            out += "multiple\n";
        }
    }
    double seconds = thread_cpu_seconds() - start;
    fwrite(out.data(), 1, out.size(), stdout);
    fprintf(stderr, "solve-seconds %.9f\n", seconds);
    return 0;
}
