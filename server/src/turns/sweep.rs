//! The sweeper of turn-based games, one per node: every
//! `--turn-sweep-secs` (and at once when a test moves the clock) it asks
//! the store for rooms whose deadline passed and opens each through the
//! registry (`Registry::route`: loaded here from the store, or left to the
//! node that holds its lease), where the restored room's own timer
//! (`Timer::Turn`) ends the game on time. A room unloaded, or a server
//! restarted, therefore still loses nobody's deadline.
//!
//! The same loop, at start and then at every sweep, loads each room with a
//! real-time game in progress that no node holds (`unheld_live_rooms`: on
//! one node, every such room not loaded yet, which after a restart is all
//! of them; of several nodes, those whose node stopped and whose lease ran
//! out), so that the game's clock and the abandon rule run from the
//! restart, not from the first visit.
//!
//! It also sends the "your turn" email: to each signed-in player with the
//! email on (`turn_mail`) and a confirmed address, whose move a game has
//! waited for longer than `--turn-mail-after-mins` (60), at most once a
//! day (`accounts.turn_mailed_at`), with a link that turns it off without
//! signing in (`/unsubscribe#t=TOKEN`; only the token's hash is kept).

use std::sync::OnceLock;
use std::time::Duration;

use tokio::sync::Notify;

use crate::app::state::App;
use crate::games::DAY_MS;
use crate::mail::Mail;
use crate::model::ids::new_token;
use crate::model::time::now_millis;
use crate::model::TokenHash;

/// Rooms opened per sweep at most (the rest wait for the next one).
const ROOMS_PER_SWEEP: i64 = 200;

fn notify() -> &'static Notify {
    static POKE: OnceLock<Notify> = OnceLock::new();
    POKE.get_or_init(Notify::new)
}

/// Wakes the sweeper now (the test clock moved).
pub fn poke() {
    notify().notify_one();
}

/// The sweeper's loop (spawned at start, aborted at shutdown).
pub async fn run(app: App) {
    let every = Duration::from_secs(app.config.turn_sweep_secs.max(1));
    open_live_rooms(&app, now_millis()).await;
    loop {
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = notify().notified() => {}
        }
        let now = now_millis();
        open_due_rooms(&app, now).await;
        open_live_rooms(&app, now).await;
        send_mail(&app, now).await;
    }
}

/// Opens every room whose turn-based deadline passed at `now`.
pub async fn open_due_rooms(app: &App, now: u64) {
    let codes = match app
        .registry
        .store()
        .rooms_past_deadline(now, ROOMS_PER_SWEEP)
        .await
    {
        Ok(codes) => codes,
        Err(e) => {
            tracing::warn!(error = %e, "turn sweep: store error");
            return;
        }
    };
    for code in codes {
        if let Err(e) = app.registry.route(&code).await {
            tracing::debug!(room = %code, error = %e, "turn sweep: room not opened");
        }
    }
}

/// Loads the rooms with a real-time game in progress that no node holds
/// at `now` and that are not loaded here, at most [`ROOMS_PER_SWEEP`] a
/// call (the rest at the next sweep).
pub async fn open_live_rooms(app: &App, now: u64) {
    let store = app.registry.store();
    let mut after = String::new();
    let mut opened = 0;
    loop {
        let codes = match store.unheld_live_rooms(now, &after, ROOMS_PER_SWEEP).await {
            Ok(codes) => codes,
            Err(e) => {
                tracing::warn!(error = %e, "live room sweep: store error");
                return;
            }
        };
        for code in &codes {
            if app.registry.running(code).is_some() {
                continue;
            }
            if opened == ROOMS_PER_SWEEP {
                return;
            }
            opened += 1;
            if let Err(e) = app.registry.route(code).await {
                tracing::debug!(room = %code, error = %e, "live room sweep: room not opened");
            }
        }
        match codes.last() {
            Some(last) if codes.len() as i64 == ROOMS_PER_SWEEP => after.clone_from(last),
            _ => return,
        }
    }
}

/// The base of the mailed links: the operator's (`--public-url`, else the
/// first `--allowed-host`), else the address listened on.
fn link_base(config: &crate::Config) -> String {
    if let Some(url) = &config.public_url {
        return url.trim_end_matches('/').to_string();
    }
    match config.allowed_hosts.first() {
        Some(host) => format!("http://{}", host.to_ascii_lowercase()),
        None => format!("http://{}", config.addr),
    }
}

/// Sends the "your turn" emails due at `now`.
pub async fn send_mail(app: &App, now: u64) {
    let store = app.registry.store();
    let waited = app.config.turn_mail_after_mins.saturating_mul(60_000);
    let mailed_since = now.saturating_sub(DAY_MS);
    let due = match store
        .turn_mail_due(now.saturating_sub(waited), mailed_since)
        .await
    {
        Ok(due) => due,
        Err(e) => {
            tracing::warn!(error = %e, "turn mail: store error");
            return;
        }
    };
    let base = link_base(&app.config);
    for to in due {
        let token = new_token();
        match store
            .mark_turn_mailed(to.account_id, now, mailed_since, &TokenHash::of(&token))
            .await
        {
            Ok(true) => {}
            Ok(false) => continue,
            Err(e) => {
                tracing::warn!(error = %e, "turn mail: store error");
                continue;
            }
        }
        let link = format!("{base}/unsubscribe#t={token}");
        let games = if to.games == 1 {
            "A game is".to_string()
        } else {
            format!("{} games are", to.games)
        };
        let mail = Mail {
            to: to.email.clone(),
            subject: "Your turn".into(),
            body: format!(
                "Hello {},\n\n{games} waiting for your move: {base}/\n\nTo stop these mails (at most one a day), open this link:\n\n{link}\n",
                to.display_name
            ),
            link,
        };
        let mailer = app.mailer.clone();
        tokio::spawn(async move { mailer.send(mail).await });
    }
}
