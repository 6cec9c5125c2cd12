/**
 * A Node `ws` client as a `NetplayTransport`: messages sent before the connection opens wait for it, a
 * connection that fails or ends becomes one `onClose` call with a line naming the URL and why, and no `error`
 * event is ever left unhandled.
 *
 * It also watches the relay: a WebSocket ping goes out every few seconds (the relay's WebSocket layer answers
 * it by itself), and when nothing at all has arrived for the silence timeout (no message, no ping, no pong;
 * the opening handshake included), the connection is dropped with a line saying the relay has been silent.
 * A relay that is frozen, or a way to it that is cut without a reset, leaves a socket that looks open for
 * ever; this is what ends it. The silence is confirmed on a second check a second after the first, so that a
 * client whose own process stalled (a loaded machine) reads what waited in its socket before it judges.
 *
 * Every text of the relay's a reason quotes (a close reason, an HTTP status line) is made printable.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { MAX_CATCHUP_LENGTH } from '../netplay/protocol.js';
import type { NetplayTransport } from '../netplay/transport.js';
import { DEFAULT_SILENCE_TIMEOUT_MS, SILENCE_TIMEOUT_RANGE } from '../netplay/heartbeat.js';
import { printable } from '../netplay/printable.js';

/** Most messages queued before the connection opens (a session sends one `join`). */
const MAX_QUEUED = 64;
/** How often the silence is checked, ms. */
const CHECK_MS = 1000;
/** Most milliseconds between two pings to the relay. */
const MAX_PING_MS = 5000;
/** How long `close()` waits for the relay's closing handshake before it drops the socket, ms. */
const CLOSE_WAIT_MS = 1000;

/** Options of `connectWsTransport`. */
export interface WsTransportOptions {
  /**
   * Milliseconds without anything from the relay (a message, a ping or a pong; the opening handshake too)
   * after which the connection is dropped as silent: default 20 000, 1 000–3 600 000. It must exceed any delay
   * the relay adds to what it sends. The end comes within this time and 2 s (the checks run every second).
   */
  silenceMs?: number;
}

/** A NetplayTransport over a `ws` client connection to `url`. */
export function connectWsTransport(url: string, options: WsTransportOptions = {}): NetplayTransport {
  const silenceMs = options.silenceMs ?? DEFAULT_SILENCE_TIMEOUT_MS;
  if (!Number.isInteger(silenceMs) || silenceMs < SILENCE_TIMEOUT_RANGE.min || silenceMs > SILENCE_TIMEOUT_RANGE.max) {
    throw new RangeError(`silenceMs must be an integer in ${SILENCE_TIMEOUT_RANGE.min}..${SILENCE_TIMEOUT_RANGE.max}, not ${silenceMs}`);
  }
  const ws = new WebSocket(url, { maxPayload: MAX_CATCHUP_LENGTH, perMessageDeflate: false, handshakeTimeout: silenceMs });
  let onMessage: (text: string) => void = () => {};
  let onClose: (reason: string) => void = () => {};
  let closed: string | null = null;
  let error: string | null = null;
  const queued: string[] = [];
  let heardAt = performance.now();
  let suspect = false;
  const heard = () => {
    heardAt = performance.now();
    suspect = false;
  };
  const finish = (reason: string) => {
    if (closed !== null) return;
    closed = reason;
    clearInterval(watch);
    queued.length = 0;
    onClose(reason);
  };
  const pingEvery = Math.max(1, Math.round(Math.min(silenceMs / 4, MAX_PING_MS) / CHECK_MS));
  let checks = 0;
  const watch = setInterval(() => {
    if (closed !== null) return clearInterval(watch);
    const quiet = performance.now() - heardAt;
    if (quiet >= silenceMs) {
      // first seen now: judged on the next check, after this process has read what waits in its socket
      if (suspect) {
        finish(`the relay at ${url} has been silent for ${Math.round(quiet / 1000)} s (no message and no answer to pings; the silence timeout is ${silenceMs / 1000} s)`);
        ws.terminate();
        return;
      }
      suspect = true;
    }
    if (++checks % pingEvery === 0 && ws.readyState === WebSocket.OPEN) ws.ping();
  }, CHECK_MS);
  watch.unref();
  let opened = false;
  ws.on('open', () => {
    opened = true;
    heard();
    for (const t of queued) ws.send(t);
    queued.length = 0;
  });
  ws.on('ping', heard);
  ws.on('pong', heard);
  ws.on('message', (data, isBinary) => {
    if (closed !== null) return;
    heard();
    if (isBinary) {
      finish(`the relay at ${url} sent a binary message`);
      ws.terminate();
      return;
    }
    onMessage(String(data));
  });
  ws.on('error', (e: Error & { code?: string }) => {
    error ??= printable(e.code && !e.message.includes(e.code) ? `${e.code} ${e.message}` : e.message);
  });
  ws.on('unexpected-response', (_req, res) => {
    error ??= `the server answered HTTP ${res.statusCode}${res.statusMessage ? ` (${printable(res.statusMessage)})` : ''}, not a WebSocket upgrade`;
    ws.terminate();
  });
  ws.on('close', (code, reason) => {
    const text = reason.length ? `: ${printable(reason.toString('utf8'))}` : error !== null ? `: ${error}` : '';
    finish(opened ? `the connection to the relay at ${url} ended (code ${code}${text})` : `cannot reach the relay at ${url}${text || ` (code ${code})`}`);
  });
  return {
    send(text) {
      if (closed !== null) return;
      if (ws.readyState === WebSocket.CONNECTING) {
        if (queued.length < MAX_QUEUED) queued.push(text);
      } else if (ws.readyState === WebSocket.OPEN) ws.send(text);
    },
    onMessage(cb) {
      onMessage = cb;
    },
    onClose(cb) {
      onClose = cb;
    },
    close() {
      clearInterval(watch);
      if (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN) {
        ws.close(1000);
        // a relay that does not answer the closing handshake (frozen, gone) does not hold the process
        setTimeout(() => ws.terminate(), CLOSE_WAIT_MS).unref();
      }
    },
  };
}
