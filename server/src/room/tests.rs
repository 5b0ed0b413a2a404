//! Unit tests of the pure room state: no socket, no database, no sleep.
