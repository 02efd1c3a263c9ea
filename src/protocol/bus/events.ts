// The durable log's events (the bus is the persisted soup: docs/protocol.md#persistence). One zod
// schema per event; a log line is an event plus its place in the log ({ seq, batch, end?, at }).
// Every rule firing produces exactly one event, so the log is the full reduction trace; `wake` is
// informational (a Run is transient: its consumption becomes durable only with `turn-end`), as are
// the engine's `outcome` and `transition` audit entries.

import * as z from "zod";
import { OutcomeRecordSchema } from "../outcome-record.js";
import { TransitionEntrySchema } from "../job-record.js";
import { REJECTION_REASONS } from "./rejection.js";
import {
  AddressSchema,
  ConsumedSchema,
  ContentSchema,
  PayloadSchema,
  PolicySchema,
  TerminateModeSchema,
} from "./schemas.js";

const thread = z.string().min(1);
const id = z.string().min(1);

export const TERMINATE_ORIGINS = ["external", "send-terminate", "cascade"] as const;

const events = {
  /** The orchestrator's instance on the job thread: the root of the dispatch tree. */
  root: { a: AddressSchema, first: ContentSchema.optional() },
  /** [spark]: Parent edge, mutual visibility, the new mailbox holding the first message. */
  spark: { from: AddressSchema, to: AddressSchema, parent: thread, content: ContentSchema },
  /** [send]: content appended to an existing mailbox. */
  deliver: { from: AddressSchema, to: AddressSchema, content: ContentSchema },
  /** [send-refuse]: an invalid payload dropped from a Send without reducing. */
  refuse: { from: AddressSchema, payload: PayloadSchema, reason: z.enum(REJECTION_REASONS) },
  /** [send-block]: a spark waits under its sender's fan-out cap. */
  block: { from: AddressSchema, to: AddressSchema, content: ContentSchema },
  /** [unblock]: the oldest waiting spark starts, as [spark] would have started it. */
  unblock: { from: AddressSchema, to: AddressSchema, parent: thread, content: ContentSchema },
  /** [term-blocked]: a waiting spark withdrawn with its sender's thread; it never starts. */
  "term-blocked": { from: AddressSchema, to: AddressSchema },
  /** [send-empty]: the broadcast is over; the instance is Idle again. */
  "send-empty": { a: AddressSchema },
  /** [wake] / [wake-int] / [interrupt]: informational; a Run is transient. */
  wake: {
    a: AddressSchema,
    rule: z.enum(["wake", "wake-int", "interrupt"]),
    content: ContentSchema,
  },
  /** [send-step] / [nosend-step] / [ask-step]: the turn's consumption becomes durable here. */
  "turn-end": {
    a: AddressSchema,
    rule: z.enum(["send-step", "nosend-step", "ask-step"]),
    consumed: z.array(ConsumedSchema),
    payloads: z.array(PayloadSchema).optional(),
    ask: z.object({ id, question: ContentSchema, policy: PolicySchema }).optional(),
  },
  ask: { id, caller: AddressSchema, question: ContentSchema, policy: PolicySchema },
  escalate: { id, framed: ContentSchema },
  "human-reply": { id, reply: ContentSchema },
  respond: { id, answer: ContentSchema },
  interrupt: { thread, content: ContentSchema },
  /** A Terminate placed: by [send-terminate], by [cascade], or from outside the soup. */
  terminate: {
    thread,
    mode: TerminateModeSchema,
    origin: z.discriminatedUnion("rule", [
      z.object({ rule: z.literal("external") }),
      z.object({ rule: z.literal("send-terminate"), by: AddressSchema }),
      z.object({ rule: z.literal("cascade"), parent: thread }),
    ]),
  },
  "term-run": { a: AddressSchema, consumed: z.array(ConsumedSchema) },
  "term-idle": { a: AddressSchema },
  "term-mbox": { a: AddressSchema },
  "term-send": { a: AddressSchema },
  "term-ask": { a: AddressSchema, id },
  "term-proxy": { id },
  "term-int": { thread, content: ContentSchema },
  "term-final": { thread },
  /** Audit: an outcome record the engine consumed from a workspace. */
  outcome: { by: AddressSchema, record: OutcomeRecordSchema },
  /** Audit: a state-machine transition the engine applied. */
  transition: { entry: TransitionEntrySchema },
  /** Audit: a verifier's judgement of a task before its close. */
  verdict: {
    task: z.string().min(1),
    by: AddressSchema,
    verdict: z.enum(["pass", "fail"]),
    issues: z.array(z.string()),
    /**
     * The commands the verifier's turn ran, as the engine recorded them from the tool results
     * (a verdict names its evidence; none on a pass means unverified). Absent in
     * logs written before it existed.
     */
    evidence: z
      .array(
        z.object({
          command: z.string(),
          exitCode: z.number().int().nullable(),
          durationMs: z.number().int().nonnegative(),
          summary: z.string().optional(),
          timedOut: z.literal(true).optional(),
        }),
      )
      .optional(),
  },
  /**
   * Audit: a person paused the job: nothing runs until a `resumed`. `by` is the person's login as
   * the forge named them.
   */
  paused: { by: z.string().min(1), reason: z.string() },
  /** Audit: a person released the pause. */
  resumed: { by: z.string().min(1) },
} as const satisfies Record<string, z.ZodRawShape>;

export type BusEventType = keyof typeof events;
export const BUS_EVENT_TYPES = Object.keys(events) as BusEventType[];

type EventSchemaOf<T extends BusEventType> = (typeof events)[T] extends infer S extends
  z.ZodRawShape
  ? z.ZodObject<{ type: z.ZodLiteral<T> } & S>
  : never;
type EventSchemas = { [T in BusEventType]: EventSchemaOf<T> };

function eventSchemas(): EventSchemas {
  const out: Record<string, z.ZodObject> = {};
  for (const type of BUS_EVENT_TYPES)
    out[type] = z.object({ type: z.literal(type), ...events[type] });
  return out as unknown as EventSchemas;
}

/** One schema per event type, e.g. `EVENT_SCHEMAS.spark`. */
export const EVENT_SCHEMAS = eventSchemas();

export type BusEventOf<T extends BusEventType> = z.infer<EventSchemaOf<T>>;
export type BusEvent = { [T in BusEventType]: BusEventOf<T> }[BusEventType];

/** Where a line sits in the log: `end` marks the last line of a batch (one step or turn). */
export const LinePlaceSchema = z.object({
  seq: z.number().int().nonnegative(),
  batch: z.number().int().nonnegative(),
  end: z.literal(true).optional(),
  at: z.string(),
});
export type LinePlace = z.infer<typeof LinePlaceSchema>;

/** One line of the log, as parsed. */
export type BusLine = BusEvent & LinePlace;

/** Per event type, the schema of a whole line: the event and its place in the log. */
export const LINE_SCHEMAS: { [T in BusEventType]: z.ZodType<BusEventOf<T> & LinePlace> } =
  Object.fromEntries(
    BUS_EVENT_TYPES.map((type) => [type, EVENT_SCHEMAS[type].extend(LinePlaceSchema.shape)]),
  ) as never;

export const isBusEventType = (value: unknown): value is BusEventType =>
  typeof value === "string" && Object.hasOwn(events, value);

/** Audit entries: informational lines the engine appends; fold returns them in order. */
export type AuditEntry = Extract<
  BusLine,
  { type: "outcome" | "transition" | "verdict" | "paused" | "resumed" }
>;

export const AUDIT_TYPES = ["outcome", "transition", "verdict", "paused", "resumed"] as const;
