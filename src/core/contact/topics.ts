/** What a message sent through the contact page is about. The database column derives from it. */
export const CONTACT_TOPICS = ["sales", "support", "billing", "other"] as const;
export type ContactTopic = (typeof CONTACT_TOPICS)[number];
