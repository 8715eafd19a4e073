"use client";

import { createContext, useContext } from "react";

/**
 * A private key handed from Key generation to Sign ("Use this key to sign"): kept in the page's
 * memory only, like everything typed into the tools. `n` counts hand-offs, so the same key handed
 * twice is taken twice.
 */
export interface KeyHandoff {
  privateKey: string;
  passphrase: string;
  n: number;
}

export interface Handoff {
  /** The last key handed to Sign, if any. */
  signKey: KeyHandoff | null;
  /** Hands a key to Sign and opens it. */
  sendToSign: (key: Omit<KeyHandoff, "n">) => void;
}

export const HandoffContext = createContext<Handoff>({ signKey: null, sendToSign: () => {} });

export const useHandoff = () => useContext(HandoffContext);
