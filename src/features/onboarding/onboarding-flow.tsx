"use client";

import { Check } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { useActionForm } from "@/components/hooks/use-action-form";
import { CurrencyCombobox } from "@/components/money/currency-combobox";
import { RoundingSelect } from "@/components/money/rounding-select";
import { refreshViewer } from "@/components/shell/viewer-store";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormInput } from "@/components/ui/form-input";
import { Label } from "@/components/ui/input";
import { Segmented } from "@/components/ui/segmented";
import { FormActions } from "@/components/ui/submit-button";
import { isMemberRole, type MemberRole } from "@/core/auth/roles";
import {
  type OnboardingStep,
  type OnboardingStepName,
  STEP_TITLES,
  stepNumber,
  stepsFor,
} from "@/core/onboarding/steps";
import { isRoundingMode } from "@/core/rounding";
import { NameSlugFields } from "@/features/organizations/name-slug-fields";
import {
  acceptInvitationAction,
  backAction,
  choosePlanAction,
  createOrganizationStepAction,
  keepOrganizationAction,
  savePreferencesAction,
  saveProfileAction,
} from "./actions";

export type OnboardingData = {
  step: Exclude<OnboardingStep, "done">;
  name: string;
  invitations: { id: string; organizationName: string; role: string; inviterName: string }[];
  highlightInvitation: string | null;
  organizations: { id: string; name: string; role: string }[];
  activeOrganization: { name: string; role: string } | null;
  preferences: { defaultCurrency: string; roundingMode: string; precision: number };
  currencies: { code: string; name: string }[];
  roundingModes: readonly string[];
  plans: { id: string; name: string; tagline: string }[];
  /** Formatted plan prices by currency code, plan and interval ("¥1,880"). */
  prices: Record<string, Record<string, Record<"monthly" | "yearly", string>>>;
  /** The paid plan picked on the pricing page before signing up. */
  chosenPlan: { plan: string; interval: "monthly" | "yearly"; currency: string } | null;
};

function memberRoleOrNull(role: string | undefined): MemberRole | null {
  return isMemberRole(role) ? role : null;
}

function Progress({ step, steps }: { step: OnboardingData["step"]; steps: readonly OnboardingStepName[] }) {
  const current = stepNumber(step);
  return (
    <ol
      className="grid gap-2"
      style={{ gridTemplateColumns: `repeat(${steps.length}, minmax(0, 1fr))` }}
      aria-label="Progress"
    >
      {steps.map((s) => {
        const n = stepNumber(s);
        const state = n < current ? "done" : n === current ? "current" : "upcoming";
        return (
          <li key={s} aria-current={state === "current" ? "step" : undefined} className="grid gap-2">
            <span
              className={`h-1.5 rounded-full ${state === "upcoming" ? "bg-muted" : "bg-primary"}`}
              aria-hidden
            />
            <span className={`text-xs ${state === "current" ? "font-medium" : "text-muted-foreground"}`}>
              {state === "done" ? <Check className="mr-1 inline size-3" aria-label="Done:" /> : null}
              {STEP_TITLES[s]}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

export function OnboardingFlow({ data }: { data: OnboardingData }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const moved = (step?: string) => {
    // Done (a member who joined skips the steps only managers act on): on to the dashboard.
    if (step === "done") {
      router.replace("/dashboard");
      router.refresh();
    } else router.refresh();
  };
  const steps = stepsFor(memberRoleOrNull(data.activeOrganization?.role));

  function back() {
    startTransition(async () => {
      const result = await callAction(() => backAction({}));
      if (result?.ok) moved();
    });
  }

  return (
    <div
      className={`mx-auto grid gap-8 px-4 py-12 sm:px-6 ${data.step === "plan" ? "max-w-4xl" : "max-w-2xl"}`}
    >
      <div className="grid gap-2">
        <p className="text-sm text-muted-foreground">
          Step {Math.max(1, steps.indexOf(data.step) + 1)} of {steps.length}
        </p>
        <h1 className="text-3xl font-semibold tracking-tight">{STEP_TITLES[data.step]}</h1>
      </div>
      <Progress step={data.step} steps={steps} />
      <div className="rounded-lg border border-border bg-card p-6 sm:p-8">
        {data.step === "profile" ? <ProfileStep data={data} onDone={moved} /> : null}
        {data.step === "organization" ? <OrganizationStep data={data} onDone={moved} /> : null}
        {data.step === "preferences" ? <PreferencesStep data={data} onDone={moved} /> : null}
        {data.step === "plan" ? <PlanStep data={data} /> : null}
      </div>
      {data.step !== "profile" ? (
        <div>
          <Button variant="ghost" onClick={back} disabled={pending}>
            ← Back
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function ProfileStep({ data, onDone }: { data: OnboardingData; onDone: () => void }) {
  // The name was typed at sign-up: show it and move on, with the field one click away.
  const [editing, setEditing] = useState(data.name.trim() === "");
  const form = useActionForm({ name: data.name }, saveProfileAction, {
    idPrefix: "profile",
    onSuccess: onDone,
  });
  return (
    <form noValidate onSubmit={form.submit} className="grid gap-1">
      {editing ? (
        <>
          <p className="mb-4 text-sm text-muted-foreground">This is how teammates will see you.</p>
          <FormInput form={form} name="name" id="profile-name" label="Your name" autoComplete="name" />
        </>
      ) : (
        <div className="mb-4 grid gap-1">
          <p className="text-sm text-muted-foreground">Teammates will see you as</p>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="text-lg font-medium break-all" data-testid="profile-name-shown">
              {form.values.name}
            </span>
            <Button type="button" variant="link" className="h-auto p-0" onClick={() => setEditing(true)}>
              Change name
            </Button>
          </p>
        </div>
      )}
      <FormActions form={form} errorId="profile-error">
        Continue
      </FormActions>
    </form>
  );
}

function OrganizationStep({ data, onDone }: { data: OnboardingData; onDone: (step?: string) => void }) {
  const [pending, startTransition] = useTransition();
  const form = useActionForm({ name: "", slug: "" }, createOrganizationStepAction, {
    idPrefix: "org",
    success: "Organization created.",
    onSuccess: () => {
      void refreshViewer();
      onDone();
    },
  });

  function accept(invitationId: string, organizationName: string) {
    startTransition(async () => {
      const result = await callAction(() => acceptInvitationAction({ invitationId }));
      if (!result) return;
      if (!result.ok) return notify.error(result.error);
      notify.success(`You joined ${organizationName}.`);
      void refreshViewer();
      onDone(result.data.step);
    });
  }

  function keep() {
    startTransition(async () => {
      const result = await callAction(() => keepOrganizationAction({}));
      if (!result) return;
      if (!result.ok) return notify.error(result.error);
      onDone(result.data.step);
    });
  }

  return (
    <div className="grid gap-8">
      {data.invitations.length > 0 ? (
        <section aria-labelledby="invitations-heading" className="grid gap-3">
          <h2 id="invitations-heading" className="font-medium">
            Invitations for you
          </h2>
          <ul className="grid gap-2">
            {data.invitations.map((inv) => (
              <li
                key={inv.id}
                className={`flex flex-wrap items-center justify-between gap-3 rounded-md border p-3 ${inv.id === data.highlightInvitation ? "border-primary" : "border-border"}`}
              >
                <div className="text-sm">
                  <p className="font-medium">{inv.organizationName}</p>
                  <p className="text-muted-foreground">
                    {inv.inviterName} invited you as {inv.role}.
                  </p>
                </div>
                <Button size="sm" onClick={() => accept(inv.id, inv.organizationName)} disabled={pending}>
                  Join {inv.organizationName}
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {data.organizations.length > 0 ? (
        <section className="grid gap-3">
          <p className="text-sm">
            You are a member of{" "}
            <span className="font-medium">{data.organizations.map((o) => o.name).join(", ")}</span>.
          </p>
          <div>
            <Button variant="outline" onClick={keep} disabled={pending}>
              Continue with {data.activeOrganization?.name ?? data.organizations[0]?.name}
            </Button>
          </div>
        </section>
      ) : null}

      <form noValidate onSubmit={form.submit} className="grid gap-1">
        <h2 className="mb-3 font-medium">
          {data.organizations.length > 0 || data.invitations.length > 0
            ? "Or create a new organization"
            : "Create your organization"}
        </h2>
        <NameSlugFields
          idPrefix="org"
          values={form.values}
          setValues={form.setValues}
          errors={form.fieldErrors}
        />
        <FormActions form={form} errorId="org-error">
          Create organization
        </FormActions>
      </form>
    </div>
  );
}

function PreferencesStep({ data, onDone }: { data: OnboardingData; onDone: (step?: string) => void }) {
  const canEdit = data.activeOrganization?.role !== "member";
  const form = useActionForm(
    {
      defaultCurrency: data.preferences.defaultCurrency,
      roundingMode: data.preferences.roundingMode,
      precision: String(data.preferences.precision),
    },
    savePreferencesAction,
    { idPrefix: "prefs", onSuccess: (result) => onDone(result.data.step) },
  );
  return (
    <form noValidate onSubmit={form.submit} className="grid gap-1">
      <p className="mb-4 text-sm text-muted-foreground">
        {canEdit
          ? `Defaults for everyone in ${data.activeOrganization?.name}. You can change them later in the organization's settings.`
          : `These are ${data.activeOrganization?.name}'s defaults, set by its owners and admins.`}
      </p>
      <Field id="prefs-defaultCurrency" label="Default currency" error={form.fieldErrors.defaultCurrency}>
        {(props) => (
          <CurrencyCombobox
            {...props}
            codes={data.currencies.map((c) => c.code)}
            value={form.values.defaultCurrency}
            onValueChange={(defaultCurrency) => form.setValues((v) => ({ ...v, defaultCurrency }))}
            disabled={!canEdit}
          />
        )}
      </Field>
      <Field id="prefs-roundingMode" label="Rounding mode" error={form.fieldErrors.roundingMode}>
        {(props) => (
          <RoundingSelect
            {...props}
            value={isRoundingMode(form.values.roundingMode) ? form.values.roundingMode : ""}
            onValueChange={(roundingMode) => form.setValues((v) => ({ ...v, roundingMode }))}
            disabled={!canEdit}
          />
        )}
      </Field>
      <FormInput
        form={form}
        name="precision"
        id="prefs-precision"
        label="Precision (significant digits)"
        hint="1 to 1,000. 20 is plenty for money."
        inputMode="numeric"
        disabled={!canEdit}
      />
      <FormActions form={form} errorId="prefs-error">
        Continue
      </FormActions>
    </form>
  );
}

function PlanStep({ data }: { data: OnboardingData }) {
  const router = useRouter();
  const chosen = data.chosenPlan;
  const priced = Object.keys(data.prices);
  const [interval, setInterval] = useState<"monthly" | "yearly">(chosen?.interval ?? "monthly");
  const [currency, setCurrency] = useState(() => {
    for (const code of [chosen?.currency, data.preferences.defaultCurrency, "USD"])
      if (code && priced.includes(code)) return code;
    return priced[0] ?? "USD";
  });
  const [pending, startTransition] = useTransition();
  const member = data.activeOrganization?.role === "member";
  const highlighted = chosen?.plan ?? "pro";

  function choose(plan: string) {
    startTransition(async () => {
      const result = await callAction(() => choosePlanAction({ plan, interval, currency }));
      if (!result) return;
      if (!result.ok) return notify.error(result.error);
      notify.success(plan === "free" || member ? "You're all set." : "Almost there: review your order.");
      await refreshViewer();
      router.replace(result.data.redirectTo);
      router.refresh();
    });
  }

  if (member) {
    return (
      <div className="grid gap-4">
        <p className="text-sm text-muted-foreground">
          {data.activeOrganization?.name}'s plan is managed by its owners and admins.
        </p>
        <div>
          <Button onClick={() => choose("free")} disabled={pending}>
            Go to the dashboard
          </Button>
        </div>
      </div>
    );
  }

  const chosenName = data.plans.find((p) => p.id === chosen?.plan)?.name;
  return (
    <div className="grid gap-6">
      {chosen && chosenName ? (
        <p className="text-sm" data-testid="chosen-plan">
          You picked <span className="font-medium">{chosenName}</span>, billed {chosen.interval}, on the
          pricing page: it is selected below.
        </p>
      ) : null}
      <div className="flex flex-wrap items-end justify-between gap-4">
        <Segmented
          legend="Billing interval"
          hideLegend
          name="interval"
          value={interval}
          onChange={setInterval}
          options={[
            { value: "monthly", label: "Monthly" },
            {
              value: "yearly",
              label: (
                <>
                  Yearly<span className="ml-1.5 text-xs text-success">2 months free</span>
                </>
              ),
            },
          ]}
        />
        {priced.length > 1 ? (
          <div className="grid w-full gap-1 sm:w-64">
            <Label htmlFor="plan-currency">Currency</Label>
            <CurrencyCombobox
              id="plan-currency"
              codes={priced}
              value={currency}
              onValueChange={setCurrency}
            />
          </div>
        ) : null}
      </div>
      <ul className="grid gap-3 md:grid-cols-3" aria-label="Plans">
        {data.plans.map((plan) => (
          <li
            key={plan.id}
            aria-current={plan.id === highlighted && chosen ? "true" : undefined}
            data-testid={`plan-${plan.id}`}
            className={`flex flex-col gap-4 rounded-md border p-4 ${plan.id === highlighted ? "border-primary ring-1 ring-primary" : "border-border"}`}
          >
            <div className="grid gap-1">
              <p className="flex flex-wrap items-center gap-2 font-medium">
                {plan.name}
                {plan.id === highlighted && chosen ? (
                  <span className="rounded-sm border border-primary/40 px-1.5 py-0.5 text-xs font-medium text-primary">
                    Your choice
                  </span>
                ) : null}
              </p>
              <p className="text-sm text-muted-foreground">{plan.tagline}</p>
            </div>
            <p className="tabular mt-auto text-sm">
              <span className="text-2xl font-semibold" data-testid="plan-price">
                {data.prices[currency]?.[plan.id]?.[interval] ?? "–"}
              </span>{" "}
              / {interval === "monthly" ? "month" : "year"}
            </p>
            <Button
              variant={plan.id === highlighted ? "default" : "outline"}
              onClick={() => choose(plan.id)}
              disabled={pending}
              className="w-full"
            >
              {plan.id === "free" ? "Start free" : `Choose ${plan.name}`}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
