import { navLinks as linksOf } from "@/core/routes";

/** The site's main navigation, from the route table. */
export const navLinks = linksOf("main");

/** A footer link: 24 px tall at least (WCAG 2.5.8 target size), so adjacent links are easy to tap. */
export const footerLinkClass = "py-0.5 text-muted-foreground hover:text-foreground";
