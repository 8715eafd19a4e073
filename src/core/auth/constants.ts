// Password limits, kept apart from the common-password list so client forms can show them cheaply.
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;
