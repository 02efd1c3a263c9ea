// One MCP server for one turn: started by the sandbox under the role's walls, greeted with the
// SDK's Client over the process's pipes, its tools listed once, each call bounded in time and
// in what it returns, and stopped — with everything it started — when the turn ends.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type {
  CommandLimits,
  NetworkAccess,
  Sandbox,
  SandboxedProcess,
} from "../../ports/sandbox.js";
import { SandboxedStdioTransport } from "./stream-transport.js";

/** A server's tool as listed: what the toolbox checks before the model ever sees it. */
export interface ListedTool {
  name: string;
  description: string;
  inputSchema: unknown;
}

export interface ServerLaunch {
  name: string;
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  network: NetworkAccess;
  limits?: CommandLimits;
}

/** A JSON-RPC message larger than this cuts the server off (a result is cut far below it). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** Pages of tools/list read at most, and tools kept from one server. */
const MAX_PAGES = 8;
export const MAX_TOOLS_PER_SERVER = 128;
const STDERR_KEPT = 2048;

// Results go to the model as text, so the SDK's check of a tool's structured output against its
// outputSchema would only run a server-chosen JSON Schema — and its regular expressions, on
// JavaScript's backtracking engine — over server-chosen data in the engine's own process.
const ACCEPT_ANY: jsonSchemaValidator = {
  getValidator: () => (input: unknown) => ({
    valid: true,
    data: input as never,
    errorMessage: undefined,
  }),
};

export class McpServerError extends Error {
  override readonly name = "McpServerError";
}

export class McpServer {
  private exit: string | null = null;
  /** The transport's last complaint (a message over the size limit cuts the server off). */
  private transportError: Error | null = null;

  private constructor(
    readonly name: string,
    private readonly process: SandboxedProcess,
    private readonly client: Client,
  ) {
    client.onerror = (error) => {
      this.transportError = error;
    };
    void process.exited.then(({ exitCode, signal }) => {
      this.exit ??= signal === null ? `exit code ${exitCode ?? "?"}` : `signal ${signal}`;
    });
  }

  /** Starts the server and lists its tools; throws McpServerError saying what the engine saw. */
  static async start(
    sandbox: Sandbox,
    launch: ServerLaunch,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ server: McpServer; tools: ListedTool[] }> {
    let proc: SandboxedProcess;
    try {
      proc = await sandbox.start({
        argv: launch.argv,
        cwd: launch.cwd,
        env: launch.env,
        network: launch.network,
        stderrBytes: STDERR_KEPT,
        ...(launch.limits === undefined ? {} : { limits: launch.limits }),
      });
    } catch (error) {
      throw new McpServerError(`could not be started: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const client = new Client(
      { name: "cfa-bot", version: "1" },
      { capabilities: {}, jsonSchemaValidator: ACCEPT_ANY },
    );
    const server = new McpServer(launch.name, proc, client);
    const deadline = AbortSignal.timeout(timeoutMs);
    const options = {
      timeout: timeoutMs,
      signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
    };
    try {
      await client.connect(new SandboxedStdioTransport(proc, MAX_MESSAGE_BYTES), options);
      const tools: ListedTool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES && tools.length < MAX_TOOLS_PER_SERVER; page += 1) {
        const listed = await client.listTools(cursor === undefined ? {} : { cursor }, options);
        for (const tool of listed.tools) {
          tools.push({
            name: tool.name,
            description: tool.description ?? "",
            inputSchema: tool.inputSchema,
          });
        }
        cursor = listed.nextCursor;
        if (cursor === undefined) break;
      }
      return { server, tools: tools.slice(0, MAX_TOOLS_PER_SERVER) };
    } catch (error) {
      if (signal?.aborted) {
        await server.stop();
        throw error;
      }
      const reason = await server.failure(error, deadline.aborted, timeoutMs);
      await server.stop();
      throw new McpServerError(reason, { cause: error });
    }
  }

  /** The server's answer to one call (the SDK's CallToolResult, unchecked). */
  async call(
    tool: string,
    input: Record<string, unknown>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<unknown> {
    if (this.exit !== null) throw new McpServerError(this.describeExit());
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      return await this.client.callTool({ name: tool, arguments: input }, undefined, {
        timeout: timeoutMs,
        signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      const reason = await this.failure(error, deadline.aborted, timeoutMs);
      throw new McpServerError(reason, { cause: error });
    }
  }

  /** True once the process is gone (it exited or was stopped). */
  get exited(): boolean {
    return this.exit !== null;
  }

  blocked() {
    return this.process.blocked();
  }

  async stop(): Promise<void> {
    await this.client.close().catch(() => {});
    await this.process.stop();
  }

  /** What went wrong, as the engine saw it: the time limit, the exit and its last stderr. */
  private async failure(error: unknown, timedOut: boolean, timeoutMs: number): Promise<string> {
    if (timedOut) return `did not answer within ${Math.round(timeoutMs / 1000)} s`;
    // The connection closes because the process ended: wait for it, to say how it ended.
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      if (this.transportError?.message.includes("exceeded maximum size") === true) {
        return `sent a message larger than ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB and was stopped`;
      }
      await this.process.exited;
      this.exit ??= "closed its output";
    }
    if (this.exit !== null) return this.describeExit();
    return `failed: ${(error as Error).message ?? String(error)}`.slice(0, 400);
  }

  private describeExit(): string {
    const tail = this.process.stderrTail().trim().split("\n").slice(-3).join(" | ");
    return `exited (${this.exit ?? "?"})${tail === "" ? "" : `; last stderr: ${tail.slice(-300)}`}`;
  }
}
