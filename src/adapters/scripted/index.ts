export { createRecordingModel } from "./recording-model.js";
export type { RecordingModel } from "./recording-model.js";
export {
  jsonPath,
  parseRecording,
  RECORDING_VERSION,
  RecordingError,
  RecordingSchema,
  StepSchema,
} from "./recording.js";
export type { Recording, Step } from "./recording.js";
export { ScriptMismatchError } from "./script-mismatch-error.js";
export { createScriptedModel } from "./scripted-model.js";
export type { ScriptedModel, ScriptedModelOptions } from "./scripted-model.js";
