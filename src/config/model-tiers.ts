// A role's model is named by tier, so a repository's config survives model releases; the
// model adapter maps a tier to a current model id. A literal model id pins one instead.

export const MODEL_TIERS = ["reasoning", "capable", "fast"] as const;
export type ModelTier = (typeof MODEL_TIERS)[number];

export const isModelTier = (value: unknown): value is ModelTier =>
  typeof value === "string" && (MODEL_TIERS as readonly string[]).includes(value);
