"use client";

import { Copy, KeyRound } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { callAction } from "@/components/hooks/call-action";
import { copyWithToast } from "@/components/hooks/copy-text";
import { notify } from "@/components/hooks/notify";
import { useActionForm } from "@/components/hooks/use-action-form";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { FormInput } from "@/components/ui/form-input";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import { createApiKeyAction, revokeApiKeyAction } from "./actions";

export type ApiKeyView = {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
};

function CreateKeyForm({ onCreated }: { onCreated: (secret: string) => void }) {
  // The shared form policy: a bad name is said once, beside the field (no summary, no toast).
  const form = useActionForm({ name: "" }, createApiKeyAction, {
    idPrefix: "key",
    resetOnSuccess: true,
    onSuccess: (result) => onCreated(result.data.secret),
  });
  return (
    <form noValidate className="grid max-w-md gap-1" onSubmit={form.submit}>
      <FormInput
        form={form}
        name="name"
        id="key-name"
        label="Key name"
        maxLength={80}
        placeholder="e.g. Invoicing service"
      />
      <FormError id="key-error" message={form.formError} />
      <div>
        <SubmitButton pending={form.pending}>
          <KeyRound aria-hidden />
          Create key
        </SubmitButton>
      </div>
    </form>
  );
}

/** API keys of the active organization. Members see the list; owners and admins create and revoke. */
export function ApiKeys({ keys, canManage }: { keys: ApiKeyView[]; canManage: boolean }) {
  const router = useRouter();
  const [secret, setSecret] = useState<string | null>(null);
  const [asking, setAsking] = useState<ApiKeyView | null>(null);

  async function revoke(key: ApiKeyView) {
    const result = await callAction(() => revokeApiKeyAction({ id: key.id }));
    if (!result) return;
    if (!result.ok) return notify.error(result.error);
    notify.success(`Key “${key.name}” revoked.`);
    router.refresh();
  }

  return (
    <div className="grid gap-4">
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        title={`Revoke “${asking?.name ?? ""}”?`}
        description={
          <>
            Calls with the key <span className="font-mono">{asking?.prefix}…</span> are refused at once. This
            cannot be undone: a service that used it needs a new key.
          </>
        }
        confirmLabel="Revoke key"
        destructive
        onConfirm={() => {
          if (asking) void revoke(asking);
        }}
      />
      {secret ? (
        <div role="status" className="grid gap-2 rounded-md border border-primary/50 bg-primary/5 p-3">
          <p className="text-sm font-medium">
            Your new key. Copy it now: it is shown only this once and Abacus keeps only a hash of it.
          </p>
          <div className="flex items-center gap-2">
            <code
              className="min-w-0 flex-1 break-all rounded bg-muted px-2 py-1 font-mono text-sm"
              data-testid="new-key"
            >
              {secret}
            </code>
            <Button
              type="button"
              variant="outline"
              size="icon"
              aria-label="Copy the key"
              onClick={() => void copyWithToast(secret, "key")}
            >
              <Copy aria-hidden />
            </Button>
          </div>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            className="justify-self-start"
            onClick={() => setSecret(null)}
          >
            I have copied it
          </Button>
        </div>
      ) : null}

      {keys.length === 0 ? (
        <p className="rounded-md border border-dashed border-border p-4 text-sm text-muted-foreground">
          No API keys yet.{" "}
          {canManage
            ? "Create one below, then send it as Authorization: Bearer <key> to /api/v1/calculate (see the API docs)."
            : "An owner or admin of this organization can create one."}
        </p>
      ) : (
        <div className="@container">
          <table className="stacked-table w-full text-sm" aria-label="API keys">
            <thead>
              <tr className="border-b border-border text-left text-muted-foreground">
                <th scope="col" className="py-2 pr-3 font-medium">
                  Name
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Key
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Last used
                </th>
                {canManage ? (
                  <th scope="col" className="py-2 pl-1">
                    <span className="sr-only">Revoke</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id} className="border-b border-border" data-testid="api-key-row">
                  <td className="py-2 pr-3 break-words" data-label="Name">
                    {key.name}
                  </td>
                  <td className="px-3 py-2 font-mono" data-label="Key">
                    {key.prefix}…
                  </td>
                  <td className="px-3 py-2 text-muted-foreground tabular" data-label="Last used">
                    {key.lastUsedAt ?? "Never"}
                  </td>
                  {canManage ? (
                    <td className="py-2 pr-4 pl-1 text-right sm:pr-0">
                      <Button type="button" variant="outline" size="sm" onClick={() => setAsking(key)}>
                        Revoke
                      </Button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {canManage ? (
        <CreateKeyForm
          onCreated={(s) => {
            setSecret(s);
            notify.success("API key created. Copy it now.");
            router.refresh();
          }}
        />
      ) : (
        <p className="text-sm text-muted-foreground">Only owners and admins can create or revoke keys.</p>
      )}
    </div>
  );
}
