//! The frames of relayed clients between two nodes, batched: every frame
//! waiting for the same peer goes out in one NATS message, without
//! headers. A message is a run of records, each
//!
//! ```text
//! op: u8 | id: u64 LE | len: u32 LE | body: len bytes
//! ```
//!
//! `op` is `TEXT`, `BINARY` or `CLOSE` (body: the close code, u16 LE, then
//! the reason). `id` names the client on the receiving node: to the owner,
//! the id it gave the client at `open`; to the relay, its own connection
//! id. Control requests (`open`, `info`) keep their headers: they are
//! rare, and a message with headers is never a batch.
//!
//! Each peer has one [`Outbox`] and one task that drains it: it takes every
//! frame already waiting, writes them into one payload and publishes it.
//! Nothing waits for a batch to fill: a frame alone goes out at once, and
//! frames gather only while the task is busy or behind, which is when
//! fewer, larger messages save the most. A client keeps the outbox it
//! started with for its whole life, so its frames stay in order (one task,
//! one NATS connection).

use async_nats::Subject;
use bytes::{Buf, BufMut, Bytes, BytesMut};
use tokio::sync::mpsc;
use tracing::{debug, warn};

pub(super) const TEXT: u8 = 1;
pub(super) const BINARY: u8 = 2;
pub(super) const CLOSE: u8 = 3;

/// Frames waiting for one peer before senders wait in turn.
const OUTBOX: usize = 4096;
/// Frames taken into one batch at most.
const BATCH_FRAMES: usize = 256;
/// A batch holds at most this many bytes, or the NATS server's payload
/// limit if that is lower (1 MiB by default); a frame is at most 64 KiB
/// from a client, and the room's messages are smaller.
const BATCH_BYTES: usize = 256 * 1024;
const RECORD_HEAD: usize = 1 + 8 + 4;
/// Scheduler turns a batch waits for more frames at most, while each turn
/// brings some.
const GATHER_TURNS: usize = 4;

/// One frame for a client on a peer node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Frame {
    pub op: u8,
    pub id: u64,
    pub body: Bytes,
}

impl Frame {
    pub fn close(id: u64, code: u16, reason: &str) -> Frame {
        let mut body = BytesMut::with_capacity(2 + reason.len());
        body.put_u16_le(code);
        body.put_slice(reason.as_bytes());
        Frame {
            op: CLOSE,
            id,
            body: body.freeze(),
        }
    }

    /// The code and reason of a `CLOSE` frame.
    pub fn close_parts(&self) -> Option<(u16, &str)> {
        let code = u16::from_le_bytes(self.body.get(..2)?.try_into().ok()?);
        let reason = std::str::from_utf8(&self.body[2..]).ok()?;
        Some((code, reason))
    }
}

fn encode(buf: &mut BytesMut, frame: &Frame) {
    buf.reserve(RECORD_HEAD + frame.body.len());
    buf.put_u8(frame.op);
    buf.put_u64_le(frame.id);
    buf.put_u32_le(frame.body.len() as u32);
    buf.put_slice(&frame.body);
}

/// Adds `frame` to the batch in `buf`; first takes the batch out (to be
/// published) if the frame would take it past `limit` bytes. A frame
/// alone over the limit still makes a batch of its own.
fn add(buf: &mut BytesMut, frame: &Frame, limit: usize) -> Option<Bytes> {
    let full = (!buf.is_empty() && buf.len() + RECORD_HEAD + frame.body.len() > limit)
        .then(|| buf.split().freeze());
    encode(buf, frame);
    full
}

/// The frames of a batch, each body a slice of `payload` (no copy). Stops
/// at the first record that does not fit.
pub(super) fn decode(mut payload: Bytes) -> impl Iterator<Item = Frame> {
    std::iter::from_fn(move || {
        if payload.len() < RECORD_HEAD {
            return None;
        }
        let op = payload.get_u8();
        let id = payload.get_u64_le();
        let len = payload.get_u32_le() as usize;
        if payload.len() < len {
            payload.clear();
            return None;
        }
        Some(Frame {
            op,
            id,
            body: payload.split_to(len),
        })
    })
}

/// Where a node's frames for one peer wait to be batched.
pub(super) type Outbox = mpsc::Sender<Frame>;

/// A new outbox for frames published to `subject`, and its task.
pub(super) fn outbox(nats: async_nats::Client, subject: Subject) -> Outbox {
    let (tx, rx) = mpsc::channel(OUTBOX);
    tokio::spawn(pump(nats, subject, rx));
    tx
}

/// Publishes the outbox's frames, batched, until every sender is gone.
async fn pump(nats: async_nats::Client, subject: Subject, mut rx: mpsc::Receiver<Frame>) {
    let mut frames = Vec::with_capacity(BATCH_FRAMES);
    let mut buf = BytesMut::new();
    let (mut batches, mut sent) = (0u64, 0u64);
    while rx.recv_many(&mut frames, BATCH_FRAMES).await > 0 {
        // Woken by the first frame: let the tasks already runnable (the
        // other clients' writers, the rest of this move's messages) run
        // first, and take what they queued into the same batch; again
        // while each turn brings more, up to `GATHER_TURNS`. No timer: an
        // idle node sends a lone frame after one turn of the scheduler.
        for _ in 0..GATHER_TURNS {
            tokio::task::yield_now().await;
            let before = frames.len();
            while frames.len() < BATCH_FRAMES {
                match rx.try_recv() {
                    Ok(frame) => frames.push(frame),
                    Err(_) => break,
                }
            }
            if frames.len() == before || frames.len() == BATCH_FRAMES {
                break;
            }
        }
        batches += 1;
        sent += frames.len() as u64;
        if batches % 16384 == 0 {
            debug!(%subject, batches, frames = sent, "relayed frames batched");
        }
        let limit = BATCH_BYTES.min(nats.max_payload());
        for frame in frames.drain(..) {
            if let Some(full) = add(&mut buf, &frame, limit) {
                publish(&nats, &subject, full).await;
            }
        }
        if !buf.is_empty() {
            publish(&nats, &subject, buf.split().freeze()).await;
        }
    }
}

async fn publish(nats: &async_nats::Client, subject: &Subject, payload: Bytes) {
    if let Err(e) = nats.publish(subject.clone(), payload).await {
        // The connection is closed for good (async-nats reconnects on
        // its own otherwise); the peers' watch lets the clients go.
        warn!(error = %e, "could not publish relayed frames");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_decodes_to_its_frames_in_order() {
        let frames = vec![
            Frame {
                op: TEXT,
                id: 7,
                body: Bytes::from_static(br#"{"type":"move"}"#),
            },
            Frame {
                op: BINARY,
                id: u64::MAX,
                body: Bytes::new(),
            },
            Frame::close(7, 4000, "Bye, é."),
        ];
        let mut buf = BytesMut::new();
        for f in &frames {
            encode(&mut buf, f);
        }
        let decoded: Vec<Frame> = decode(buf.freeze()).collect();
        assert_eq!(decoded, frames);
        assert_eq!(decoded[2].close_parts(), Some((4000, "Bye, é.")));
    }

    #[test]
    fn a_cut_batch_yields_the_whole_records_only() {
        let mut buf = BytesMut::new();
        encode(
            &mut buf,
            &Frame {
                op: TEXT,
                id: 1,
                body: Bytes::from_static(b"first"),
            },
        );
        encode(
            &mut buf,
            &Frame {
                op: TEXT,
                id: 2,
                body: Bytes::from_static(b"second"),
            },
        );
        let cut = buf.freeze().slice(..RECORD_HEAD + 5 + RECORD_HEAD + 3);
        let decoded: Vec<Frame> = decode(cut).collect();
        assert_eq!(decoded.len(), 1);
        assert_eq!(&decoded[0].body[..], b"first");
        assert_eq!(decoded[0].id, 1);
        assert!(decode(Bytes::from_static(b"\x01\x02")).next().is_none());
    }

    #[test]
    fn a_batch_stays_within_the_payload_limit() {
        let frame = |id| Frame {
            op: TEXT,
            id,
            body: Bytes::from(vec![b'x'; 30]),
        };
        let (mut buf, mut batches) = (BytesMut::new(), Vec::new());
        for id in 0..5 {
            batches.extend(add(&mut buf, &frame(id), 100));
        }
        batches.push(buf.split().freeze());
        // 43 bytes a record: two fit in 100, the third starts a batch.
        let sizes: Vec<usize> = batches.iter().map(|b| b.len()).collect();
        assert_eq!(sizes, [86, 86, 43]);
        let ids: Vec<u64> = batches
            .into_iter()
            .flat_map(|b| decode(b).map(|f| f.id).collect::<Vec<_>>())
            .collect();
        assert_eq!(ids, [0, 1, 2, 3, 4]);
        // A frame over the limit goes alone.
        let big = Frame {
            op: TEXT,
            id: 9,
            body: Bytes::from(vec![b'y'; 200]),
        };
        assert!(add(&mut buf, &big, 100).is_none());
        assert_eq!(add(&mut buf, &frame(10), 100).map(|b| b.len()), Some(213));
    }

    #[test]
    fn a_short_close_body_has_no_parts() {
        let f = Frame {
            op: CLOSE,
            id: 1,
            body: Bytes::from_static(b"\x01"),
        };
        assert_eq!(f.close_parts(), None);
    }
}
