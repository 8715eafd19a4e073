import { onNavigationStart, startMonitoring } from "@/features/monitoring/boot";

// Runs in the browser before the app hydrates. Kept tiny: the Sentry SDK loads as a separate chunk.
startMonitoring();

export const onRouterTransitionStart = onNavigationStart;
