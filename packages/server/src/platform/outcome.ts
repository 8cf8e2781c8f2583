// What a service asks of the transport, as data (issue 23): services take plain inputs and never touch a
// request or reply; the doors apply what they return (trpc/outcome.ts) and what they throw (AppError, its
// Retry-After included).

/** The admin session's fields as sign-in writes them. */
export type SignedInSession = {
  adminId: string;
  username: string;
  /** ms epoch of sign-in: the absolute lifetime counts from here. */
  signedInAt: number;
  lastSeenAt: number;
  ip: string;
  userAgent: string;
  /** ADMIN_REQUIRE_2FA and no two-factor yet. */
  mustEnrolTwoFactor?: boolean;
};

/** A change to the admin session the operation ran in; the session cookie follows from it. */
export type SessionChange =
  /** A new session id (a session id planted before sign-in is worthless afterwards), with these fields. */
  | { kind: 'start'; fields: SignedInSession }
  /** The session ends (its row deleted, its cookie no longer renewed). */
  | { kind: 'end' }
  /** These fields of the current session change. */
  | { kind: 'update'; fields: Pick<SignedInSession, 'mustEnrolTwoFactor'> };

/** A service's answer, and what the transport must do to the session before giving it. */
export type Outcome<T> = { answer: T; session?: SessionChange };
