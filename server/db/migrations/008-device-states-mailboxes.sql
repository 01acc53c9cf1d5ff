-- Device states applications set through ARI (`Stasis:<name>`), kept across restarts as Asterisk keeps
-- them in its astdb. `name` is what follows `Stasis:`; `state` is one of ARI's device states, upper case.
CREATE TABLE device_states (
  name  TEXT PRIMARY KEY,
  state TEXT NOT NULL
);

-- Mailboxes (message-waiting counts) applications keep through ARI's mailboxes resource.
CREATE TABLE mailboxes (
  name         TEXT PRIMARY KEY,
  old_messages INTEGER NOT NULL,
  new_messages INTEGER NOT NULL
);
