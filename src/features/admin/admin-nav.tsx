/**
 * The frame of an admin screen. The admin sections themselves are listed by the app shell, from the
 * route table (`src/core/routes.ts`, section "admin"), so adding an admin page is one line there.
 */
export function AdminPage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-8 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
      {children}
    </div>
  );
}
