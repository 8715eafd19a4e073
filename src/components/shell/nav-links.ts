import { navLinks as linksOf } from "@/core/routes";

/** The site's main navigation, from the route table. */
export const navLinks = linksOf("main");
