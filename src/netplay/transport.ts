/**
 * The one thing a netplay session needs from the network: a message pipe to the relay. A browser `WebSocket`
 * or a Node `ws` client is wrapped into it; tests use an in-memory pair.
 */

/**
 * A bidirectional text-message pipe to a netplay relay (one JSON object per message). `onMessage` and
 * `onClose` are called at most once each to register; `close` is idempotent.
 */
export interface NetplayTransport {
  /** Sends one text message (fire and forget; a closed pipe ignores it). */
  send(text: string): void;
  /** Registers the receiver of every incoming text message. */
  onMessage(cb: (text: string) => void): void;
  /** Registers the callback for the pipe's end, with a reason. */
  onClose(cb: (reason: string) => void): void;
  /** Closes the pipe. */
  close(): void;
}
