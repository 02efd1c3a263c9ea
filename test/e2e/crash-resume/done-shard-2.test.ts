// Bounded crash-loss (docs/protocol.md#invariants): a process that dies between any two steps of a
// turn loses at most that turn; the next wake — new deps over the same repository and work dir —
// resumes, and the job ends where it would have, with nothing done twice. A whole job to DONE, died
// at every call it makes through its ports: this file takes share 2 of 2 of those points
// (test/support/engine/crash-scenarios.ts), done-shard-1.test.ts the other.

import { describeDoneShard } from "../../support/engine/crash-scenarios.js";

await describeDoneShard(1, 2);
