// zod schemas of the values that cross the bus, for validating log lines. Each is checked
// against its hand-written type in molecules.ts so the two cannot drift apart.

import * as z from "zod";
import type { Address } from "../address.js";
import {
  CONSUMED_SOURCES,
  ESCALATION_POLICIES,
  TERMINATE_MODES,
  type Consumed,
  type Content,
  type Payload,
} from "./molecules.js";

export const AddressSchema = z.object({
  agent: z.string().min(1),
  thread: z.string().min(1),
}) satisfies z.ZodType<Address>;

export const ContentSchema = z.object({
  kind: z.string(),
  text: z.string(),
  from: AddressSchema.optional(),
  data: z.record(z.string(), z.unknown()).optional(),
}) satisfies z.ZodType<Content>;

export const PayloadSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("deliver"), to: AddressSchema, content: ContentSchema }),
  z.object({ kind: z.literal("terminate"), thread: z.string().min(1) }),
]) satisfies z.ZodType<Payload>;

export const ConsumedSchema = z.object({
  from: z.enum(CONSUMED_SOURCES),
  content: ContentSchema,
}) satisfies z.ZodType<Consumed>;

export const PolicySchema = z.enum(ESCALATION_POLICIES);
export const TerminateModeSchema = z.enum(TERMINATE_MODES);
