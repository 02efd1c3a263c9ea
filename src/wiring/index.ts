// What the entry points that run the engine (cli/ and worker/) wire alike: the model's names
// and prices, the sandboxes. Entry points never import each other; both import this.

export { priceOf, resolveModel } from "./model-prices.js";
export { sandboxesHiding } from "./sandboxes.js";
