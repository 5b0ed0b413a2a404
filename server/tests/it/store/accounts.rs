//! Accounts, sessions and email links.

use super::fixtures::*;
use server::model::now_millis;
use server::model::{new_token, TokenHash};
use server::store::{
    LinkPurpose, NewLink, NewSession, SignedIn, Store, SESSIONS_PER_ACCOUNT, SESSION_IDLE_MS,
};

/// Accounts: usernames are unique in any case; credentials; sessions by
/// their cookie secret, which expire after 30 days unused, end one by one
/// or all but one, and end on a password change. Returns the plain
/// secrets it used, which a backend check can look for in the database
/// (they must not be there), the kept one last.
pub(super) async fn accounts_and_sessions(store: &Store) -> Vec<String> {
    const DAY: u64 = 24 * 60 * 60 * 1000;
    let t0 = now_millis();
    let name = format!("Minh_{}", &new_token()[..8]);
    let (first, _) = session_at(t0);
    let (account, first_id) = store
        .create_account(
            &name,
            "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
            Some("minh@example.com"),
            Some(open(&first, t0)),
            t0,
        )
        .await
        .expect("create_account")
        .expect("a free name");
    let first_id = first_id.expect("a first session");
    assert_eq!(account.username, name);
    assert_eq!(account.display_name, name);
    assert_eq!(account.email.as_deref(), Some("minh@example.com"));
    assert_eq!(
        store.account(account.id).await.expect("account"),
        Some(account.clone())
    );

    // The name is taken in any case.
    for taken in [name.clone(), name.to_lowercase(), name.to_uppercase()] {
        let again = store
            .create_account(&taken, "other-hash", None, Some(open(&new_token(), t0)), t0)
            .await
            .expect("create_account");
        assert!(again.is_none(), "{taken} is taken");
    }

    // Credentials by name, in any case, and by id.
    for asked in [name.clone(), name.to_uppercase()] {
        let c = store
            .credentials(&asked)
            .await
            .expect("credentials")
            .expect("found in any case");
        assert_eq!(c.account, account);
        assert_eq!(
            c.password_hash,
            "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA"
        );
    }
    let by_id = store
        .credentials_by_id(account.id)
        .await
        .expect("credentials")
        .expect("by id");
    assert_eq!(by_id.account, account);
    assert!(store
        .credentials(&format!("nobody_{}", &new_token()[..8]))
        .await
        .expect("credentials")
        .is_none());

    // The session given at creation works by its plain secret, not by its
    // hash.
    let me = |session| {
        Some(SignedIn {
            account: account.clone(),
            session,
        })
    };
    assert_eq!(
        store
            .session_account(&first, t0 + 1)
            .await
            .expect("session"),
        me(first_id)
    );
    assert!(store
        .session_account(TokenHash::of(&first).as_str(), t0 + 1)
        .await
        .expect("session")
        .is_none());

    // A login starts another session; both are listed, most recent first.
    let second = new_token();
    assert!(store
        .session_account(&second, t0)
        .await
        .expect("session")
        .is_none());
    let second_id = store
        .start_session(open(&second, t0 + 10), account.id)
        .await
        .expect("start_session")
        .0;
    assert_ne!(second_id, first_id);
    assert_eq!(
        store
            .session_account(&second, t0 + 20)
            .await
            .expect("session"),
        me(second_id)
    );
    let listed = store.sessions(account.id, t0 + 30).await.expect("sessions");
    assert_eq!(
        listed.iter().map(|s| s.id).collect::<Vec<_>>(),
        vec![second_id, first_id]
    );
    assert_eq!(listed[0].agent, "Test browser");
    assert_eq!(listed[0].last_seen, t0 + 20);
    assert_eq!(listed[0].created_at, t0 + 10);

    // Another account cannot end them; the owner ends one by id.
    let other = new_account(store, "Lan_", t0).await;
    assert_ne!(other.id, account.id);
    assert!(other.email.is_none());
    assert!(!store.end_session(other.id, second_id).await.expect("end"));
    assert!(store.end_session(account.id, second_id).await.expect("end"));
    assert!(!store
        .end_session(account.id, second_id)
        .await
        .expect("end again"));
    assert!(store
        .session_account(&second, t0 + 40)
        .await
        .expect("session")
        .is_none());
    assert_eq!(
        store
            .session_account(&first, t0 + 40)
            .await
            .expect("session"),
        me(first_id)
    );

    // A session unused for 30 days is over; one used within them lives on.
    let idle = SESSION_IDLE_MS;
    assert_eq!(idle, 30 * DAY);
    let (fading, _) = session_at(t0);
    let fading_id = store
        .start_session(open(&fading, t0 + 40), account.id)
        .await
        .expect("start_session")
        .0;
    assert_eq!(
        store
            .session_account(&first, t0 + 40 + idle - 1)
            .await
            .expect("used"),
        me(first_id),
        "used just within 30 days"
    );
    assert!(
        store
            .session_account(&fading, t0 + 40 + idle)
            .await
            .expect("expired")
            .is_none(),
        "30 days unused: over"
    );
    assert!(
        !store
            .sessions(account.id, t0 + 40 + idle)
            .await
            .expect("sessions")
            .iter()
            .any(|s| s.id == fading_id),
        "an expired session is not listed"
    );

    // Logging out everywhere else keeps only this session.
    let later = t0 + 40 + idle;
    let (third, _) = session_at(later);
    store
        .start_session(open(&third, later), account.id)
        .await
        .expect("start_session");
    let (fourth, _) = session_at(later);
    let fourth_id = store
        .start_session(open(&fourth, later), account.id)
        .await
        .expect("start_session")
        .0;
    let ended = store
        .end_other_sessions(account.id, fourth_id)
        .await
        .expect("end others");
    assert!(ended >= 2, "ended {ended}");
    assert!(signed_out(store, &first, later).await);
    assert!(signed_out(store, &third, later).await);
    assert_eq!(
        store.session_account(&fourth, later).await.expect("s"),
        me(fourth_id)
    );

    // A password change ends every other session, in one go.
    let (fifth, _) = session_at(later);
    store
        .start_session(open(&fifth, later), account.id)
        .await
        .expect("start_session");
    store
        .change_password(account.id, "new-hash", fourth_id)
        .await
        .expect("change_password");
    assert_eq!(password_hash(store, &name).await, "new-hash");
    assert!(signed_out(store, &fifth, later).await);

    // A logout by secret ends that session.
    assert!(!store.end_session_by_secret(&fifth).await.expect("end"));
    assert!(store.end_session_by_secret(&fourth).await.expect("end"));
    assert!(signed_out(store, &fourth, later).await);

    // A session to keep (the backend check looks for it).
    let kept = new_token();
    store
        .start_session(open(&kept, now_millis()), account.id)
        .await
        .expect("start_session");
    vec![first, second, fading, third, fourth, fifth, kept]
}

/// The stored password hash of the account named `name`.
async fn password_hash(store: &Store, name: &str) -> String {
    store
        .credentials(name)
        .await
        .expect("c")
        .expect("c")
        .password_hash
}

/// Whether the session with secret `secret` is over (or was never
/// started) at `now`.
async fn signed_out(store: &Store, secret: &str, now: u64) -> bool {
    store
        .session_account(secret, now)
        .await
        .expect("s")
        .is_none()
}

/// A link for `account` valid for an hour from `now`.
fn email_link<'a>(
    account_id: i64,
    email: &'a str,
    purpose: LinkPurpose,
    secret: &'a str,
    now: u64,
    per_hour: i64,
) -> NewLink<'a> {
    NewLink {
        purpose,
        account_id,
        email,
        secret,
        now,
        expires_at: now + 60 * 60 * 1000,
        per_hour,
    }
}

/// Email links: a confirmation link makes its address the account's,
/// once; a recovery link resets the password, ends every session and
/// opens a new one, once, and not after it expires; an account gets at
/// most `per_hour` links of a kind an hour; accounts are found by their
/// confirmed address only.
async fn email_links(store: &Store) {
    let now = now_millis();
    let name = format!("Mai_{}", &new_token()[..8]);
    let email = format!("{}@example.org", name.to_lowercase());
    let (account, _) = store
        .create_account(&name, "old-hash", Some(&email), None, now)
        .await
        .expect("create_account")
        .expect("free");
    assert!(!account.email_confirmed);
    assert!(store
        .accounts_by_email(&email)
        .await
        .expect("by email")
        .is_empty());
    let id = account.id;

    // Confirm, once; a recovery link is not a confirmation link.
    let confirm = new_token();
    assert!(store
        .add_link(email_link(
            id,
            &email,
            LinkPurpose::Confirm,
            &confirm,
            now,
            3
        ))
        .await
        .expect("add_link"));
    let recover_too_early = new_token();
    assert!(store
        .add_link(email_link(
            id,
            &email,
            LinkPurpose::Recover,
            &recover_too_early,
            now,
            3
        ))
        .await
        .expect("add_link"));
    assert!(store
        .confirm_email(&recover_too_early, now)
        .await
        .expect("confirm")
        .is_none());
    let confirmed = store
        .confirm_email(&confirm, now + 1)
        .await
        .expect("confirm")
        .expect("a good link");
    assert!(confirmed.email_confirmed);
    assert_eq!(confirmed.email.as_deref(), Some(email.as_str()));
    assert!(store
        .confirm_email(&confirm, now + 2)
        .await
        .expect("again")
        .is_none());
    let found = store
        .accounts_by_email(&email.to_uppercase())
        .await
        .expect("by email");
    assert_eq!(
        found.iter().map(|a| a.id).collect::<Vec<_>>(),
        vec![account.id]
    );

    // Three links an hour; the fourth is not stored.
    for _ in 0..2 {
        let secret = new_token();
        assert!(store
            .add_link(email_link(
                id,
                &email,
                LinkPurpose::Recover,
                &secret,
                now + 3,
                3
            ))
            .await
            .expect("add_link"));
    }
    let fourth = new_token();
    assert!(!store
        .add_link(email_link(
            id,
            &email,
            LinkPurpose::Recover,
            &fourth,
            now + 4,
            3
        ))
        .await
        .expect("add_link"));

    // An hour later: a new link; used after it expired, it changes nothing.
    let hour = 60 * 60 * 1000;
    let late = new_token();
    assert!(store
        .add_link(email_link(
            id,
            &email,
            LinkPurpose::Recover,
            &late,
            now + hour + 10,
            3
        ))
        .await
        .expect("add_link"));
    let session = new_token();
    let open_at = |t| NewSession {
        secret: &session,
        agent: "x",
        now: t,
    };
    assert!(store
        .reset_password(&late, "new-hash", open_at(now + 2 * hour + 10))
        .await
        .expect("reset")
        .is_none());
    assert_eq!(password_hash(store, &name).await, "old-hash");

    // A fresh one resets the password, ends the sessions, opens one; once.
    let other_session = new_token();
    store
        .start_session(
            NewSession {
                secret: &other_session,
                agent: "x",
                now: now + hour + 20,
            },
            account.id,
        )
        .await
        .expect("start_session");
    let fresh = new_token();
    assert!(store
        .add_link(email_link(
            id,
            &email,
            LinkPurpose::Recover,
            &fresh,
            now + hour + 30,
            3
        ))
        .await
        .expect("add_link"));
    let (who, session_id) = store
        .reset_password(&fresh, "new-hash", open_at(now + hour + 40))
        .await
        .expect("reset")
        .expect("a good link");
    assert_eq!(who.id, account.id);
    assert_eq!(password_hash(store, &name).await, "new-hash");
    assert!(signed_out(store, &other_session, now + hour + 50).await);
    assert_eq!(
        store
            .session_account(&session, now + hour + 50)
            .await
            .expect("s")
            .map(|s| s.session),
        Some(session_id)
    );
    assert!(store
        .reset_password(&fresh, "third-hash", open_at(now + hour + 60))
        .await
        .expect("reset")
        .is_none());

    // Removing the email: not found by it any more.
    store.set_email(account.id, None).await.expect("set_email");
    assert!(store
        .accounts_by_email(&email)
        .await
        .expect("by email")
        .is_empty());
}

// On SQLite, `sqlite.rs` runs it and then reads the database file.
mod accounts_and_sessions {
    #[tokio::test]
    async fn postgres() {
        if let Some(schema) = crate::common::postgres::schema().await {
            let store = schema.open().await;
            super::accounts_and_sessions(&store).await;
            store.close().await;
            schema.drop().await;
        }
    }
}

on_both!(email_links);

/// An account keeps at most `SESSIONS_PER_ACCOUNT` sessions: the login
/// past it ends the least recently used one, and says which it ended.
async fn sessions_are_bounded_per_account(store: &Store) {
    let t0 = now_millis();
    let name = format!("Lan_{}", &new_token()[..8]);
    let (first, _) = session_at(t0);
    let (account, _) = store
        .create_account(&name, "hash", None, Some(open(&first, t0)), t0)
        .await
        .expect("create_account")
        .expect("a free name");
    let mut secrets = vec![first];
    let mut ids = Vec::new();
    for n in 1..SESSIONS_PER_ACCOUNT as u64 {
        let secret = new_token();
        let (id, ended) = store
            .start_session(open(&secret, t0 + n), account.id)
            .await
            .expect("start_session");
        assert!(ended.is_empty(), "login {n} ended {ended:?}");
        secrets.push(secret);
        ids.push(id);
    }
    // The first session is used again: the second is now the least
    // recently used.
    assert!(!signed_out(store, &secrets[0], t0 + 100).await);
    let secret = new_token();
    let (_, ended) = store
        .start_session(open(&secret, t0 + 101), account.id)
        .await
        .expect("start_session");
    assert_eq!(ended, vec![ids[0]], "the least recently used ended");
    assert!(signed_out(store, &secrets[1], t0 + 102).await);
    assert!(!signed_out(store, &secrets[0], t0 + 102).await);
    assert!(!signed_out(store, &secret, t0 + 102).await);
    let listed = store
        .sessions(account.id, t0 + 103)
        .await
        .expect("sessions");
    assert_eq!(listed.len(), SESSIONS_PER_ACCOUNT as usize);
}

on_both!(sessions_are_bounded_per_account);
