import Link from "next/link";

export function Logo() {
  return (
    <Link
      href="/"
      className="flex items-center gap-2 rounded-md font-semibold tracking-tight"
      aria-label="Abacus home"
    >
      <svg viewBox="0 0 24 24" className="size-6 text-primary" aria-hidden="true" fill="none">
        <rect x="2.5" y="2.5" width="19" height="19" rx="4" stroke="currentColor" strokeWidth="1.6" />
        <path d="M6 8h12M6 12h12M6 16h12" stroke="currentColor" strokeWidth="1.2" opacity=".45" />
        <circle cx="9" cy="8" r="1.7" fill="currentColor" />
        <circle cx="14.5" cy="12" r="1.7" fill="currentColor" />
        <circle cx="11" cy="16" r="1.7" fill="currentColor" />
      </svg>
      <span>Abacus</span>
    </Link>
  );
}
