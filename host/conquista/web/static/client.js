"use strict";
// One WebSocket to the board, reopened after a drop; the first message is a hello (with the seat token, if any).
// The token lives only in the URL fragment, which browsers never send to a server.

function seatToken() {
  const match = /(?:^|[#&])t=([A-Za-z0-9_-]+)/.exec(location.hash);
  return match ? match[1] : null;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    // Through the CSSOM: the page's Content-Security-Policy refuses inline style attributes.
    else if (key === "style") node.style.cssText = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function connect(onFrame, onState) {
  let socket = null;
  let delay = 500;
  const client = {
    send(message) {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    },
    reopen() { if (socket) socket.close(); },
  };
  function open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(`${scheme}//${location.host}/ws`);
    socket.onopen = () => {
      delay = 500;
      const hello = { type: "hello" };
      const token = seatToken();
      if (token) hello.token = token;
      socket.send(JSON.stringify(hello));
      onState("connected");
    };
    socket.onmessage = (event) => onFrame(JSON.parse(event.data));
    socket.onclose = () => {
      onState("offline: reconnecting…");
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 5000);
    };
  }
  open();
  return client;
}

function isDark(hex) {
  const n = parseInt(hex.slice(1), 16);
  return ((n >> 16) & 255) * 0.3 + ((n >> 8) & 255) * 0.59 + (n & 255) * 0.11 < 110;
}
