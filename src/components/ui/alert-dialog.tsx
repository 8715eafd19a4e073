"use client";

import { AlertDialog as A } from "radix-ui";
import type * as React from "react";
import { cn } from "@/lib/utils";
import { buttonVariants } from "./button";

export const AlertDialog = A.Root;
export const AlertDialogTrigger = A.Trigger;

/**
 * A confirmation that interrupts: focus starts on Cancel, Escape cancels, and clicking outside
 * does nothing (unlike Dialog), so a destructive action is never taken by accident.
 */
export function AlertDialogContent({
  title,
  description,
  className,
  children,
}: {
  title: string;
  description: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <A.Portal>
      <A.Overlay className="fixed inset-0 z-50 bg-black/50" />
      <A.Content
        className={cn(
          "fixed left-1/2 top-1/2 z-50 grid max-h-[90dvh] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-5 overflow-y-auto rounded-lg border border-border bg-popover p-6 text-popover-foreground shadow-lg",
          className,
        )}
      >
        <div className="grid gap-2">
          <A.Title className="text-lg font-semibold">{title}</A.Title>
          <A.Description className="text-sm text-muted-foreground">{description}</A.Description>
        </div>
        {children}
      </A.Content>
    </A.Portal>
  );
}

/** The dialog's buttons: stacked on phones (the action on top), in a row from 640 px. */
export function AlertDialogFooter({ children }: { children: React.ReactNode }) {
  return <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{children}</div>;
}

export function AlertDialogCancel({ children = "Cancel" }: { children?: React.ReactNode }) {
  return <A.Cancel className={buttonVariants({ variant: "outline" })}>{children}</A.Cancel>;
}

export function AlertDialogAction({
  children,
  destructive = false,
  onClick,
}: {
  children: React.ReactNode;
  destructive?: boolean;
  onClick: () => void;
}) {
  return (
    <A.Action
      className={buttonVariants({ variant: destructive ? "destructive" : "default" })}
      onClick={onClick}
    >
      {children}
    </A.Action>
  );
}

/**
 * A controlled confirmation: `open` while a question is pending, `onConfirm` when the person agrees.
 * For questions asked after something other than a click on a trigger (a select's change).
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel,
  destructive = false,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: React.ReactNode;
  confirmLabel: string;
  /** When "Cancel" would be ambiguous (e.g. the action itself cancels something). */
  cancelLabel?: string;
  destructive?: boolean;
  onConfirm: () => void;
}) {
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent title={title} description={description}>
        <AlertDialogFooter>
          <AlertDialogCancel>{cancelLabel ?? "Cancel"}</AlertDialogCancel>
          <AlertDialogAction destructive={destructive} onClick={onConfirm}>
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
