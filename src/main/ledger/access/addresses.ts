// A person's email address as it is kept and compared: trimmed and lower-cased (one person per address).
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const normalEmail = (email: string): string => email.trim().toLowerCase();
