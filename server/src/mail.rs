//! Mail the site sends: the links that confirm an address and recover an
//! account. They go through `lettre` to the operator's SMTP server
//! (`--smtp-url`); without one, each link is written to the log (level
//! INFO, target `mail`), so a self-hoster can still recover an account.
//! Mail is only sent when the operator fixed the host of its links
//! (`--public-url` or `--allowed-host`, see `app/hosts.rs`): otherwise the
//! links go to the log too, and the server says so at start.

use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

/// How mail leaves the server.
#[derive(Clone)]
pub enum Mailer {
    Smtp {
        transport: AsyncSmtpTransport<Tokio1Executor>,
        from: Mailbox,
    },
    /// No SMTP server: the log gets the link.
    Log,
}

/// One message: a subject, a plain-text body, and the link it carries
/// (the log fallback writes the link itself).
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub body: String,
    pub link: String,
}

impl Mailer {
    /// The mailer of `config`: [`Mailer::new`], or the log when no
    /// operator setting fixes the host of the links.
    pub fn for_config(config: &crate::Config) -> anyhow::Result<Mailer> {
        if !mail_links_fixed(config) {
            if config.smtp_url.is_some() {
                tracing::warn!(
                    target: "mail",
                    "neither --public-url nor --allowed-host is set: no mail is sent, each link goes to the log"
                );
            }
            return Ok(Mailer::Log);
        }
        Mailer::new(config.smtp_url.as_deref(), &config.mail_from)
    }

    /// The mailer `--smtp-url` and `--mail-from` describe.
    pub fn new(smtp_url: Option<&str>, from: &str) -> anyhow::Result<Mailer> {
        let Some(url) = smtp_url else {
            return Ok(Mailer::Log);
        };
        let from: Mailbox = from
            .parse()
            .map_err(|e| anyhow::anyhow!("--mail-from {from:?}: {e}"))?;
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| anyhow::anyhow!("--smtp-url: {e}"))?
            .build();
        Ok(Mailer::Smtp { transport, from })
    }

    /// Sends `mail`; failures are logged (the person asking gets the same
    /// answer either way, and may ask again).
    pub async fn send(&self, mail: Mail) {
        match self {
            Mailer::Log => {
                tracing::info!(
                    target: "mail",
                    to = %mail.to,
                    "no SMTP server configured; the link: {}",
                    mail.link
                );
            }
            Mailer::Smtp { transport, from } => {
                let to: Mailbox = match mail.to.parse() {
                    Ok(to) => to,
                    Err(e) => {
                        tracing::warn!(target: "mail", error = %e, "not a mailbox; nothing sent");
                        return;
                    }
                };
                let message = Message::builder()
                    .from(from.clone())
                    .to(to)
                    .subject(mail.subject)
                    .body(mail.body);
                let message = match message {
                    Ok(m) => m,
                    Err(e) => {
                        tracing::warn!(target: "mail", error = %e, "could not build the mail");
                        return;
                    }
                };
                match transport.send(message).await {
                    Ok(_) => tracing::info!(target: "mail", "mail sent"),
                    Err(e) => {
                        tracing::warn!(target: "mail", error = %e, "the SMTP server refused the mail")
                    }
                }
            }
        }
    }
}

/// Whether mail may carry links: only when the operator fixed their host
/// (`--public-url` or `--allowed-host`).
pub fn mail_links_fixed(config: &crate::Config) -> bool {
    config.public_url.is_some() || !config.allowed_hosts.is_empty()
}
