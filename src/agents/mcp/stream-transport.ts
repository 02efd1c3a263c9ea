// The MCP SDK's Transport over a server process the sandbox started (the SDK's own
// StdioClientTransport spawns the server itself, outside any sandbox): newline-delimited
// JSON-RPC on the process's stdin and stdout, with the SDK's ReadBuffer holding at most
// `maxMessageBytes` — a server (whose code may be the job branch's, which agents edit) that
// writes an endless line is cut off, not buffered into the engine's memory.

import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { SandboxedProcess } from "../../ports/sandbox.js";

export class SandboxedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer: ReadBuffer;
  private closed = false;

  constructor(
    private readonly process: SandboxedProcess,
    maxMessageBytes: number,
  ) {
    this.buffer = new ReadBuffer({ maxBufferSize: maxMessageBytes });
  }

  async start(): Promise<void> {
    this.process.stdout.on("data", (chunk: Buffer) => {
      try {
        this.buffer.append(chunk);
      } catch (error) {
        this.onerror?.(error as Error);
        void this.close();
        return;
      }
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (error) {
          // A line that is not JSON-RPC (a server logging to stdout): said, and skipped.
          this.onerror?.(error as Error);
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    });
    void this.process.exited.then(() => this.closeOnce());
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(new Error("the server has exited"));
        return;
      }
      const ok = this.process.stdin.write(serializeMessage(message), (error) => {
        if (error) reject(error);
      });
      if (ok) resolve();
      else this.process.stdin.once("drain", () => resolve());
    });
  }

  async close(): Promise<void> {
    await this.process.stop();
    this.closeOnce();
  }

  private closeOnce(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
