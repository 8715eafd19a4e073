import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SERVICE_UNAVAILABLE_DIGEST, SERVICE_UNAVAILABLE_TITLE } from "@/core/service-unavailable";
import { CLIENT_ERROR_MESSAGE, ErrorFallback } from "./error-fallback";

// With the database down, pages once showed the client-exception fallback. A page's error
// that carries the outage digest (getViewer's ServiceUnavailableError) shows "temporarily
// unavailable" from the first render; any other error keeps the generic fallback (which then asks
// /api/health, in the browser only).
const render = (digest?: string) =>
  renderToStaticMarkup(<ErrorFallback error={Object.assign(new Error("x"), { digest })} reset={() => {}} />);

describe("ErrorFallback", () => {
  it("shows the temporarily-unavailable page for the outage digest", () => {
    const html = render(SERVICE_UNAVAILABLE_DIGEST);
    expect(html).toContain(SERVICE_UNAVAILABLE_TITLE);
    expect(html).not.toContain(CLIENT_ERROR_MESSAGE);
  });

  it("keeps the generic fallback for other errors", () => {
    const html = render("12345");
    expect(html).toContain(CLIENT_ERROR_MESSAGE);
    expect(html).not.toContain(SERVICE_UNAVAILABLE_TITLE);
  });
});
