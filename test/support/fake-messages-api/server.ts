// A real local HTTP server that plays the Claude Messages API: the real SDK and adapter talk
// to it over HTTP through ANTHROPIC_BASE_URL (or a provider client's base URL), so what is
// tested is what would go on the wire. It answers POST /v1/messages (JSON, or SSE when the
// body asks `stream: true`, in the event shapes of
// https://platform.claude.com/docs/en/build-with-claude/streaming), records every request as
// received (method, path, headers, raw body), and lets a test answer with a message, an error
// status with the API's error body, or a dropped connection. Bedrock's and Vertex's paths are
// recorded too (their clients rewrite the path; the body is the same Messages body).

import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ApiRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received. */
  raw: string;
  /** The parsed body (null when not JSON). */
  body: Record<string, unknown> | null;
}

export type ApiReply =
  | { kind: "message"; message: Record<string, unknown>; headers?: Record<string, string> }
  | {
      kind: "error";
      status: number;
      type: string;
      message: string;
      headers?: Record<string, string>;
    }
  /** The connection is destroyed before any response (a reset, as a network fault). */
  | { kind: "reset" };

export interface FakeMessagesApi {
  url: string;
  requests: ApiRequest[];
  close(): Promise<void>;
}

export async function startFakeMessagesApi(
  respond: (request: ApiRequest) => ApiReply | Promise<ApiReply>,
): Promise<FakeMessagesApi> {
  const requests: ApiRequest[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      let body: Record<string, unknown> | null = null;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        body = null;
      }
      const request: ApiRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        raw,
        body,
      };
      requests.push(request);
      let reply: ApiReply;
      try {
        reply = await respond(request);
      } catch (error) {
        reply = { kind: "error", status: 500, type: "api_error", message: String(error) };
      }
      if (reply.kind === "reset") {
        req.socket.destroy();
        return;
      }
      if (reply.kind === "error") {
        res.writeHead(reply.status, {
          "content-type": "application/json",
          "request-id": `req_fake_${requests.length}`,
          ...reply.headers,
        });
        res.end(
          JSON.stringify({
            type: "error",
            error: { type: reply.type, message: reply.message },
            request_id: `req_fake_${requests.length}`,
          }),
        );
        return;
      }
      if (body?.stream === true) {
        res.writeHead(200, { "content-type": "text/event-stream", ...reply.headers });
        res.end(sseOf(reply.message));
        return;
      }
      res.writeHead(200, { "content-type": "application/json", ...reply.headers });
      res.end(JSON.stringify(reply.message));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** A message as the streaming API sends it: start, each block with its deltas, delta, stop. */
export function sseOf(message: Record<string, unknown>): string {
  const event = (type: string, data: unknown) =>
    `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
  const usage = (message.usage ?? {}) as Record<string, unknown>;
  const out: string[] = [
    event("message_start", {
      type: "message_start",
      message: {
        ...message,
        content: [],
        stop_reason: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
  ];
  const content = (message.content ?? []) as Record<string, unknown>[];
  content.forEach((block, index) => {
    const start = (shell: Record<string, unknown>) =>
      out.push(
        event("content_block_start", { type: "content_block_start", index, content_block: shell }),
      );
    const delta = (d: Record<string, unknown>) =>
      out.push(event("content_block_delta", { type: "content_block_delta", index, delta: d }));
    if (block.type === "text") {
      start({ ...block, text: "" });
      delta({ type: "text_delta", text: block.text });
    } else if (block.type === "thinking") {
      start({ ...block, thinking: "", signature: "" });
      delta({ type: "thinking_delta", thinking: block.thinking });
      delta({ type: "signature_delta", signature: block.signature });
    } else if (block.type === "tool_use") {
      start({ ...block, input: {} });
      const json = JSON.stringify(block.input);
      // In two pieces, as the API streams a tool input.
      const cut = Math.floor(json.length / 2);
      delta({ type: "input_json_delta", partial_json: json.slice(0, cut) });
      delta({ type: "input_json_delta", partial_json: json.slice(cut) });
    } else {
      start(block);
    }
    out.push(event("content_block_stop", { type: "content_block_stop", index }));
  });
  out.push(
    event("message_delta", {
      type: "message_delta",
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens ?? 0 },
    }),
    event("message_stop", { type: "message_stop" }),
  );
  return out.join("");
}
