//! Who may do what: the `--auth FILE` tokens and their roles.
//!
//! One token a line: `TOKEN role=camera|arbiter|viewer [name=NAME]
//! [boards=ID,ID…]` (`#` starts a comment). A camera streams to and opens
//! games on its boards only; a viewer watches and reads; an arbiter does
//! everything, deciding incidents and correcting moves included. Calls
//! carry `authorization: Bearer TOKEN`. Without a token file the service
//! answers loopback addresses only.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;

use tonic::Status;
use tonic::metadata::MetadataMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Camera,
    Arbiter,
    Viewer,
}

/// What a call needs.
#[derive(Debug, Clone, Copy)]
pub enum Need<'a> {
    /// To stream frames to, or open a game on, this board.
    Camera(&'a str),
    /// To read and watch.
    Viewer,
    /// To decide incidents and correct moves.
    Arbiter,
}

#[derive(Debug, Clone)]
pub struct Holder {
    pub name: String,
    pub role: Role,
    boards: Vec<String>,
}

/// The access rule of the running service.
#[derive(Debug, Clone)]
pub enum Access {
    /// No token file: loopback callers only, each an arbiter.
    LoopbackOnly,
    Tokens(HashMap<String, Holder>),
}

impl Access {
    /// Reads a token file; errors name the line.
    pub fn from_file(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut tokens = HashMap::new();
        for (number, line) in text.lines().enumerate() {
            let content = line.split('#').next().unwrap_or_default().trim();
            if content.is_empty() {
                continue;
            }
            let at = |what: String| format!("{}: line {}: {what}", path.display(), number + 1);
            let mut words = content.split_whitespace();
            let token = words.next().unwrap_or_default().to_string();
            if token.contains('=') || token.len() < 8 {
                return Err(at(format!(
                    "expected a token of 8 characters or more first, found `{token}`"
                )));
            }
            let mut holder = Holder {
                name: String::new(),
                role: Role::Viewer,
                boards: Vec::new(),
            };
            let mut role = None;
            for word in words {
                match word.split_once('=') {
                    Some(("role", "camera")) => role = Some(Role::Camera),
                    Some(("role", "arbiter")) => role = Some(Role::Arbiter),
                    Some(("role", "viewer")) => role = Some(Role::Viewer),
                    Some(("role", other)) => {
                        return Err(at(format!(
                            "role `{other}` is not camera, arbiter or viewer"
                        )));
                    }
                    Some(("name", name)) => holder.name = name.to_string(),
                    Some(("boards", boards)) => {
                        holder.boards = boards.split(',').map(str::to_string).collect();
                    }
                    _ => {
                        return Err(at(format!("`{word}` is not role=…, name=… or boards=…")));
                    }
                }
            }
            holder.role = role.ok_or_else(|| at("missing role=camera|arbiter|viewer".into()))?;
            if holder.role == Role::Camera && holder.boards.is_empty() {
                return Err(at("a camera needs boards=ID,…".into()));
            }
            if holder.name.is_empty() {
                holder.name =
                    format!("{:?} token on line {}", holder.role, number + 1).to_lowercase();
            }
            if tokens.insert(token, holder).is_some() {
                return Err(at("this token is listed twice".into()));
            }
        }
        if tokens.is_empty() {
            // A service no token opens would answer nobody, without a word.
            return Err(format!(
                "{}: no token in it (one a line: TOKEN role=camera|arbiter|viewer …)",
                path.display()
            ));
        }
        Ok(Access::Tokens(tokens))
    }

    /// Who is calling, if allowed to do what the call needs.
    pub fn check(
        &self,
        metadata: &MetadataMap,
        peer: Option<SocketAddr>,
        need: Need,
    ) -> Result<Holder, Status> {
        let tokens = match self {
            Access::LoopbackOnly => {
                return match peer {
                    Some(addr) if addr.ip().is_loopback() => Ok(Holder {
                        name: "local".into(),
                        role: Role::Arbiter,
                        boards: Vec::new(),
                    }),
                    _ => Err(Status::permission_denied(
                        "this service runs without --auth and answers loopback addresses only",
                    )),
                };
            }
            Access::Tokens(tokens) => tokens,
        };
        let token = metadata
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .ok_or_else(|| Status::unauthenticated("missing `authorization: Bearer TOKEN`"))?;
        let holder = tokens
            .get(token)
            .ok_or_else(|| Status::unauthenticated("unknown token"))?;
        let allowed = match (holder.role, need) {
            (Role::Arbiter, _) => true,
            (Role::Viewer, Need::Viewer) => true,
            (Role::Camera, Need::Camera(board)) => holder.boards.iter().any(|b| b == board),
            _ => false,
        };
        if allowed {
            Ok(holder.clone())
        } else {
            Err(Status::permission_denied(match need {
                Need::Camera(board) => format!("{} may not stream to board {board}", holder.name),
                Need::Viewer => format!("{} is a camera: it may not read games", holder.name),
                Need::Arbiter => format!("{} is not an arbiter", holder.name),
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(text: &str) -> Result<Access, String> {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("tokens");
        std::fs::write(&path, text).expect("write");
        Access::from_file(&path)
    }

    fn bearer(token: &str) -> MetadataMap {
        let mut map = MetadataMap::new();
        map.insert(
            "authorization",
            format!("Bearer {token}").parse().expect("ascii"),
        );
        map
    }

    #[test]
    fn roles_allow_what_they_should_and_nothing_more() {
        let access = access(
            "cam-token-1 role=camera boards=b1\narb-token-1 role=arbiter name=Anna\nview-token role=viewer\n",
        )
        .expect("parses");
        let peer = Some(SocketAddr::from(([10, 0, 0, 2], 5000)));
        assert!(
            access
                .check(&bearer("cam-token-1"), peer, Need::Camera("b1"))
                .is_ok()
        );
        let refused = access.check(&bearer("cam-token-1"), peer, Need::Camera("b2"));
        assert_eq!(
            refused.expect_err("other board").code(),
            tonic::Code::PermissionDenied
        );
        assert!(
            access
                .check(&bearer("cam-token-1"), peer, Need::Viewer)
                .is_err()
        );
        assert!(
            access
                .check(&bearer("view-token"), peer, Need::Viewer)
                .is_ok()
        );
        assert!(
            access
                .check(&bearer("view-token"), peer, Need::Arbiter)
                .is_err()
        );
        let anna = access
            .check(&bearer("arb-token-1"), peer, Need::Arbiter)
            .expect("arbiter");
        assert_eq!(anna.name, "Anna");
        let unknown = access.check(&bearer("nobody-token"), peer, Need::Viewer);
        assert_eq!(
            unknown.expect_err("unknown").code(),
            tonic::Code::Unauthenticated
        );
    }

    #[test]
    fn without_tokens_only_loopback_is_answered() {
        let open = Access::LoopbackOnly;
        let local = Some(SocketAddr::from(([127, 0, 0, 1], 5000)));
        let remote = Some(SocketAddr::from(([192, 168, 1, 9], 5000)));
        assert!(
            open.check(&MetadataMap::new(), local, Need::Arbiter)
                .is_ok()
        );
        assert!(
            open.check(&MetadataMap::new(), remote, Need::Viewer)
                .is_err()
        );
    }

    #[test]
    fn a_file_without_a_token_is_refused() {
        let err = access("# tokens to come\n\n").expect_err("refused");
        assert!(err.contains("no token in it"), "{err}");
    }

    #[test]
    fn a_bad_line_is_named() {
        let err = access("good-token-1 role=viewer\nshort role=viewer\n").expect_err("refused");
        assert!(err.contains("line 2"), "{err}");
        let err = access("cam-token-1 role=camera\n").expect_err("refused");
        assert!(err.contains("boards"), "{err}");
    }
}
