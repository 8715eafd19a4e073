/** The building blocks every tool form is made of. */

export type { Option } from "../constants";
export { formatBytes, formatLimit } from "../format";
export * from "./data-field";
export * from "./fields";
export * from "./job";
export * from "./layout";
export * from "./pem-field";
export * from "./result";
export * from "./run-row";
