-- Scripts set through the simulation API (PUT /sim/endpoints/{tech}/{resource}/script) for the
-- calls we place to an endpoint. `endpoint` is the fixture key (PJSIP/manual); `script` the checked
-- steps as JSON; `calls` how many more calls follow it (NULL: every call until it is deleted).
CREATE TABLE endpoint_scripts (
  endpoint TEXT PRIMARY KEY,
  script   TEXT NOT NULL,
  calls    INTEGER
);
