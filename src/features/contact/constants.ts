// Shared by the form (client) and the schema (server); kept free of zod so the form stays small.
import type { Result } from "@/core/result";
export const contactTopicOptions = [
  { value: "sales", label: "Sales" },
  { value: "support", label: "Support" },
  { value: "billing", label: "Billing" },
  { value: "other", label: "Something else" },
] as const;

export const MESSAGE_MIN = 10;
export const MESSAGE_MAX = 5000;

export type ContactField = "name" | "email" | "topic" | "message";
export type ContactResult = Result<undefined, ContactField>;
