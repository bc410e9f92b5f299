/**
 * Migrations, applied in order at start; PRAGMA user_version records how many ran.
 * Never edit a shipped migration: append a new one.
 * Ids use AUTOINCREMENT so a deleted conversation, message or comment never hands its id to a new one
 * (a client keys drafts, unread records and links by id).
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE files (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    owner_id INTEGER NOT NULL,
    purpose TEXT NOT NULL CHECK (purpose IN ('avatar', 'attachment')),
    mime TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('image', 'video')),
    size INTEGER NOT NULL,
    original_name TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    stid TEXT NOT NULL UNIQUE,
    phone_nr TEXT NOT NULL UNIQUE,
    country_code TEXT NOT NULL,
    nickname TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    image_file_id INTEGER REFERENCES files(id),
    created_at INTEGER NOT NULL,
    deleted_at TEXT NOT NULL DEFAULT '0',
    event_seq INTEGER NOT NULL DEFAULT 0
  );

  CREATE TABLE tokens (
    hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE pins (
    phone_nr TEXT PRIMARY KEY,
    pin_hash TEXT NOT NULL,
    issued_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    wrong_tries INTEGER NOT NULL DEFAULT 0
  );

  CREATE TABLE pin_failures (phone_nr TEXT NOT NULL, at INTEGER NOT NULL);
  CREATE INDEX pin_failures_phone ON pin_failures(phone_nr, at);
  CREATE TABLE pin_requests (phone_nr TEXT NOT NULL, at INTEGER NOT NULL);
  CREATE INDEX pin_requests_phone ON pin_requests(phone_nr, at);

  CREATE TABLE communities (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    stid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    avatar_file_id INTEGER REFERENCES files(id),
    is_private INTEGER NOT NULL DEFAULT 0,
    country_code TEXT NOT NULL,
    owner_id INTEGER REFERENCES users(id),
    created_at INTEGER NOT NULL
  );

  CREATE TABLE community_members (
    community_id INTEGER NOT NULL REFERENCES communities(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id),
    is_admin INTEGER NOT NULL DEFAULT 0,
    is_owner INTEGER NOT NULL DEFAULT 0,
    joined_at INTEGER NOT NULL,
    PRIMARY KEY (community_id, user_id)
  );
  CREATE INDEX community_members_user ON community_members(user_id);

  CREATE TABLE conversations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    stid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    image_file_id INTEGER REFERENCES files(id),
    is_group INTEGER NOT NULL,
    group_type TEXT NOT NULL DEFAULT 'normal' CHECK (group_type IN ('normal', 'channel', 'feed')),
    reply_to INTEGER NOT NULL DEFAULT 0,
    show_numbers_to_all INTEGER NOT NULL DEFAULT 0,
    user_notifications_to_all INTEGER NOT NULL DEFAULT 0,
    all_invite INTEGER NOT NULL DEFAULT 1,
    owner_id INTEGER REFERENCES users(id),
    community_id INTEGER REFERENCES communities(id) ON DELETE CASCADE,
    is_community_announcements INTEGER NOT NULL DEFAULT 0,
    is_demo INTEGER NOT NULL DEFAULT 0,
    disable_comments INTEGER NOT NULL DEFAULT 0,
    read_only INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    last_message_id INTEGER,
    last_message_at INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX conversations_community ON conversations(community_id);

  CREATE TABLE conversation_members (
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id),
    is_admin INTEGER NOT NULL DEFAULT 0,
    is_owner INTEGER NOT NULL DEFAULT 0,
    can_create_posts INTEGER NOT NULL DEFAULT 0,
    joined_at INTEGER NOT NULL,
    last_read_message_id INTEGER NOT NULL DEFAULT 0,
    mute TEXT,
    delivery_settings TEXT,
    PRIMARY KEY (conversation_id, user_id)
  );
  CREATE INDEX conversation_members_user ON conversation_members(user_id);

  CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    stid TEXT NOT NULL UNIQUE,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id),
    client_id INTEGER,
    fingerprint TEXT,
    type TEXT NOT NULL DEFAULT 'text' CHECK (type IN ('text', 'system')),
    message TEXT NOT NULL DEFAULT '',
    attachment TEXT,
    quoted_id INTEGER,
    audience TEXT,
    pinned INTEGER NOT NULL DEFAULT 0,
    comments_count INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    edited_at INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX messages_conversation ON messages(conversation_id, id);
  CREATE UNIQUE INDEX messages_idempotency
    ON messages(conversation_id, user_id, client_id, fingerprint) WHERE client_id IS NOT NULL;

  CREATE TABLE hidden_messages (
    user_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, message_id)
  ) WITHOUT ROWID;

  CREATE TABLE reactions (
    message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    reaction TEXT NOT NULL,
    set_at INTEGER NOT NULL,
    PRIMARY KEY (message_id, user_id, reaction)
  ) WITHOUT ROWID;

  CREATE TABLE receipts (
    message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('delivered', 'read')),
    at INTEGER NOT NULL,
    PRIMARY KEY (message_id, user_id, type)
  ) WITHOUT ROWID;

  CREATE TABLE comments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    post_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    parent_comment_id INTEGER REFERENCES comments(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id),
    message TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX comments_post ON comments(post_id, parent_comment_id, id);

  CREATE TABLE comment_reactions (
    comment_id INTEGER NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    reaction TEXT NOT NULL,
    set_at INTEGER NOT NULL,
    PRIMARY KEY (comment_id, user_id, reaction)
  ) WITHOUT ROWID;

  CREATE TABLE events (
    user_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, seq)
  ) WITHOUT ROWID;
  `,
  // 2: comments follow the client_id rule of messages (design.md §4); a message's attachment file can be
  // found by its URL, so deleting the last message that uses a file can delete the file.
  `
  ALTER TABLE comments ADD COLUMN client_id INTEGER;
  ALTER TABLE comments ADD COLUMN fingerprint TEXT;
  CREATE UNIQUE INDEX comments_idempotency
    ON comments(channel_id, user_id, client_id, fingerprint) WHERE client_id IS NOT NULL;
  CREATE INDEX messages_attachment_url
    ON messages(json_extract(attachment, '$.url')) WHERE attachment IS NOT NULL;
  `,
  // 3: a random identity of this database, so a client whose event ids came from another one (a reset
  // data directory) is told to sync instead of being replayed someone else's history.
  `
  CREATE TABLE server_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  INSERT INTO server_meta (key, value) VALUES ('epoch', lower(hex(randomblob(8))));
  `,
  // 4: an event's data is stored once, not once per receiver (issue 11): a message to a group of 100 wrote
  // its JSON 100 times, and every commit waits for those bytes to reach the disk (synchronous=FULL).
  // Existing events keep their ids; each gets a payload of its own.
  `
  CREATE TABLE event_payloads (id INTEGER PRIMARY KEY, data TEXT NOT NULL);
  CREATE TABLE events_v4 (
    user_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    payload_id INTEGER NOT NULL REFERENCES event_payloads(id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, seq)
  ) WITHOUT ROWID;
  INSERT INTO event_payloads (id, data) SELECT ROW_NUMBER() OVER (ORDER BY user_id, seq), data FROM events;
  INSERT INTO events_v4 (user_id, seq, action, payload_id, created_at)
    SELECT user_id, seq, action, ROW_NUMBER() OVER (ORDER BY user_id, seq), created_at FROM events;
  DROP TABLE events;
  ALTER TABLE events_v4 RENAME TO events;
  CREATE INDEX events_payload ON events(payload_id);
  `,
  // 5: "Go to date" (issue 24) finds a chat's first message at or after a time by one index seek (the rowid,
  // the message id, ends every SQLite index entry: ties come in id order).
  `
  CREATE INDEX messages_conversation_time ON messages(conversation_id, created_at);
  `,
  // 6: the name the creator of a one-to-one chat typed for the other person (issue 23), shown as the chat's
  // name on the creator's side while that person has no nickname of their own (no account yet).
  `
  ALTER TABLE conversation_members ADD COLUMN contact_name TEXT;
  `,
  // 7: when each user's last socket closed (epoch ms), so a chat opened later can say "last seen" (issue 23).
  `
  ALTER TABLE users ADD COLUMN last_seen_at INTEGER;
  `,
  // 8: each user's event counter in a narrow table of its own (issue 21). Every event bumps its receivers'
  // counters; on PostgreSQL, bumping them in the wide users row (three indexes) mostly could not be done in
  // place, so a message to a group of 100 left 100 dead users rows and index entries behind, and the
  // fan-out-cluster benchmark spent most of the database's time there. One code path for both stores: the
  // table, and the trigger that gives every new user a counter, are here too.
  `
  CREATE TABLE event_counters (
    user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL
  );
  INSERT INTO event_counters (user_id, seq) SELECT id, event_seq FROM users;
  CREATE TRIGGER users_event_counter AFTER INSERT ON users
    BEGIN INSERT INTO event_counters (user_id, seq) VALUES (NEW.id, 0); END;
  ALTER TABLE users DROP COLUMN event_seq;
  `,
  // 9: delete for everybody leaves a tombstone (docs/server.md "Delete for everybody"): the row keeps its id,
  // sender and time, and when it was deleted (epoch ms; 0 while it stands), so history shows where it was.
  `
  ALTER TABLE messages ADD COLUMN deleted_at INTEGER NOT NULL DEFAULT 0;
  `,
  // 10: an operator can deactivate a user (docs/server.md "Admin tool"): when (epoch ms; 0 while active). A
  // deactivated user's sign-in is refused (account_deactivated) and their tokens answer 401. Additive, so the
  // build before it runs beside it during a rolling restart (docs/server.md "Upgrading").
  `
  ALTER TABLE users ADD COLUMN deactivated_at INTEGER NOT NULL DEFAULT 0;
  `,
  // 11: sessions that end (docs/server.md "Sessions"): each token gets an opaque id to name it by (never its
  // hash), when it was last used (idle tokens expire), and the browser and system it signed in from (names
  // from a short list, never the raw User-Agent). Tokens from before count as used at the upgrade.
  `
  ALTER TABLE tokens ADD COLUMN sid TEXT NOT NULL DEFAULT '';
  ALTER TABLE tokens ADD COLUMN last_used_at INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE tokens ADD COLUMN browser TEXT NOT NULL DEFAULT '';
  ALTER TABLE tokens ADD COLUMN os TEXT NOT NULL DEFAULT '';
  UPDATE tokens SET sid = lower(hex(randomblob(12))), last_used_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000;
  CREATE UNIQUE INDEX tokens_sid ON tokens(sid);
  CREATE INDEX tokens_user ON tokens(user_id);
  CREATE INDEX tokens_last_used ON tokens(last_used_at);
  `,
];
