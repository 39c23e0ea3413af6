// Evaluates a JavaScript expression in the first page of the Chromium whose DevTools
// port (on 127.0.0.1) is argv[2], and prints the result as JSON. The zoo's verdict for
// browser games comes from the page's DOM this way. Node 20: --experimental-websocket.
const [port, expression] = process.argv.slice(2);
const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
const page = targets.find((t) => t.type === "page");
if (!page) { console.error(`cdp: no page on port ${port}`); process.exit(1); }
const ws = new WebSocket(page.webSocketDebuggerUrl);
const timer = setTimeout(() => { console.error("cdp: no answer in 10 s"); process.exit(1); }, 10000);
ws.onopen = () => ws.send(JSON.stringify({ id: 1, method: "Runtime.evaluate", params: { expression, returnByValue: true } }));
ws.onmessage = (event) => {
  const msg = JSON.parse(event.data);
  if (msg.id !== 1) return;
  clearTimeout(timer);
  if (msg.result?.exceptionDetails) { console.error(`cdp: ${msg.result.exceptionDetails.text}`); process.exit(1); }
  console.log(JSON.stringify(msg.result?.result?.value ?? null));
  ws.close();
};
