package io.ragsearch.store;

import java.sql.SQLException;

/**
 * What went wrong with the database, said so a person can act on it. The pool reports every
 * failure to connect as "Connection is not available, request timed out"; the reason (a wrong
 * password, a missing database) is further down the cause chain, so it is looked for there.
 * Pure: a throwable in, a sentence out; no password is ever part of it.
 */
public final class DatabaseProblem {

    private DatabaseProblem() {
    }

    public static String describe(Throwable failure, String user) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                // Class 28: invalid authorization (28P01 wrong password, 28000 no such role or no pg_hba entry).
                if (state.startsWith("28")) {
                    return "authentication failed for user " + (user == null ? "(the one in the URL)" : "'" + user + "'")
                            + ": the database refused the user name or password (RAGSEARCH_DB_USER, RAGSEARCH_DB_PASSWORD)";
                }
                if (state.equals("3D000")) {
                    return "the database named in the URL does not exist: " + firstLine(sql.getMessage());
                }
                if (state.startsWith("08")) {
                    return "cannot connect to the database: " + firstLine(sql.getMessage());
                }
            }
        }
        String message = failure.getMessage();
        return message == null ? failure.getClass().getSimpleName() : firstLine(message);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
