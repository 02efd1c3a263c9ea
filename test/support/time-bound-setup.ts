// Run before each test file (vitest.config.ts setupFiles): the file's default test and hook
// bounds scale with the machine's load when it starts (time-bound.ts says why).
import { vi } from "vitest";
import { bound } from "./time-bound.js";

export const BASE_BOUND_MS = 60_000;

vi.setConfig({ testTimeout: bound(BASE_BOUND_MS), hookTimeout: bound(BASE_BOUND_MS) });
