"use client";

import { KeyRound } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { addPasskeyAction, passkeyOptionsAction, removePasskeyAction } from "./actions";

export type PasskeyRow = { id: string; name: string; added: string; synced: boolean };

/** The user's passkeys: add one (the browser asks the device), or remove one after confirming. */
export function PasskeySettings({ passkeys }: { passkeys: PasskeyRow[] }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [pending, startTransition] = useTransition();

  function add() {
    startTransition(async () => {
      const options = await callAction(() => passkeyOptionsAction({}));
      if (!options) return;
      if (!options.ok) return notify.error(options.error);
      const { startRegistration } = await import("@simplewebauthn/browser");
      let response: unknown;
      try {
        response = await startRegistration({ optionsJSON: options.data as never });
      } catch {
        return notify.error(
          "No passkey was created. Your device may not support passkeys, or the request was cancelled.",
        );
      }
      const result = await callAction(() => addPasskeyAction({ response, name: name || undefined }));
      if (!result) return;
      if (!result.ok) return notify.error(result.error);
      notify.success("Passkey added. You can use it to sign in.");
      setName("");
      router.refresh();
    });
  }

  function remove(row: PasskeyRow) {
    if (!window.confirm(`Remove the passkey “${row.name}”? It will no longer sign you in.`)) return;
    startTransition(async () => {
      const result = await callAction(() => removePasskeyAction({ id: row.id }));
      if (!result) return;
      if (!result.ok) return notify.error(result.error);
      notify.success("Passkey removed.");
      router.refresh();
    });
  }

  return (
    <div className="grid max-w-xl gap-4">
      {passkeys.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No passkeys yet. A passkey lets you sign in with your device's screen lock or security key instead
          of your password.
        </p>
      ) : (
        <ul className="grid gap-2" aria-label="Passkeys">
          {passkeys.map((row) => (
            <li
              key={row.id}
              className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-border p-3"
            >
              <div className="flex min-w-0 items-start gap-3">
                <KeyRound className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
                <div className="min-w-0 text-sm">
                  <p className="truncate font-medium">{row.name}</p>
                  <p className="text-muted-foreground">
                    Added <span className="tabular-nums">{row.added}</span>
                    {row.synced ? " · synced across devices" : ""}
                  </p>
                </div>
              </div>
              <Button
                size="sm"
                variant="outline"
                onClick={() => remove(row)}
                disabled={pending}
                aria-label={`Remove ${row.name}`}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="grid max-w-md gap-1">
        <Field id="passkey-name" label="Name for a new passkey (optional)" hint="Such as “Work laptop”.">
          {(props) => (
            <Input {...props} value={name} onChange={(e) => setName(e.target.value)} maxLength={60} />
          )}
        </Field>
        <div>
          <Button
            type="button"
            variant="outline"
            onClick={add}
            disabled={pending}
            aria-busy={pending || undefined}
          >
            <KeyRound aria-hidden />
            Add a passkey
          </Button>
        </div>
      </div>
    </div>
  );
}
