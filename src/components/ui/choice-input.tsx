"use client";

import type * as React from "react";
import { useEarlyCheck } from "./early-input";

/**
 * A radio button or checkbox whose click before hydration is not lost (see ./early-input): use it
 * for every controlled one on a server-rendered page.
 */
export function ChoiceInput({
  ref,
  ...props
}: React.ComponentProps<"input"> & { type: "radio" | "checkbox" }) {
  const keep = useEarlyCheck(props.onChange ? props.checked : undefined, ref);
  return <input ref={keep} {...props} />;
}
