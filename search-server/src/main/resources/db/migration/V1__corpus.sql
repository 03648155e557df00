-- The corpus record: projects, their documents, and the documents' articles with stored
-- embeddings. corpus_version grows by one with every change of a project's content; servers
-- rebuild their in-process index when it moves.
CREATE TABLE projects (
    name             text PRIMARY KEY,
    description      text        NOT NULL DEFAULT '',
    corpus_version   bigint      NOT NULL DEFAULT 0,
    updated_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE documents (
    project     text        NOT NULL REFERENCES projects (name) ON DELETE CASCADE,
    id          text        NOT NULL,
    title       text        NOT NULL,
    source      text        NOT NULL,
    sha256      text        NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project, id)
);

-- embedding: float32 little-endian, NULL when the project stores none (e.g. a Korean corpus
-- the built-in English model cannot represent). The model's name and digest travel with it.
CREATE TABLE articles (
    project           text    NOT NULL,
    document          text    NOT NULL,
    ordinal           integer NOT NULL,
    label             text    NOT NULL,
    title             text    NOT NULL,
    body              text    NOT NULL,
    deleted           boolean NOT NULL DEFAULT false,
    embedding         bytea,
    embedding_model   text,
    embedding_digest  text,
    PRIMARY KEY (project, document, ordinal),
    FOREIGN KEY (project, document) REFERENCES documents (project, id) ON DELETE CASCADE
);
