//! A PostgreSQL server of the test's own: `initdb` into a temporary folder,
//! `postgres` on a free loopback port (TCP only), stopped and removed when
//! dropped. Never a system service. Run as the `postgres` user when the
//! tests run as root (PostgreSQL refuses root).

#![allow(dead_code)]

use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Postgres {
    /// postgres://referee@127.0.0.1:PORT/postgres
    pub url: String,
    pub port: u16,
    child: Child,
    _dir: tempfile::TempDir,
}

/// The folder holding `initdb` and `postgres`: on the PATH, else Debian's
/// `/usr/lib/postgresql/VERSION/bin` (the newest).
fn binaries() -> PathBuf {
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            if dir.join("initdb").is_file() && dir.join("postgres").is_file() {
                return dir;
            }
        }
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path().join("bin"))
                .filter(|bin| bin.join("initdb").is_file())
                .collect()
        })
        .unwrap_or_default();
    versions.sort_by_key(|bin| {
        bin.parent()
            .and_then(|v| v.file_name())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(0)
    });
    versions.pop().expect(
        "PostgreSQL is not installed (no initdb on the PATH nor in /usr/lib/postgresql): run scripts/setup",
    )
}

/// The user and group ids to run PostgreSQL as: ours, or `postgres`'s when root.
fn ids() -> Option<(u32, u32)> {
    let id = |args: &[&str]| -> u32 {
        let out = Command::new("id").args(args).output().expect("id runs");
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("id {args:?}: {}", String::from_utf8_lossy(&out.stderr)))
    };
    (id(&["-u"]) == 0).then(|| (id(&["-u", "postgres"]), id(&["-g", "postgres"])))
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Postgres {
    pub fn start() -> Self {
        let bin = binaries();
        let dir = tempfile::Builder::new()
            .prefix("referee-pg")
            .tempdir()
            .expect("tempdir");
        let data = dir.path().join("data");
        std::fs::create_dir(&data).expect("data folder");
        let ids = ids();
        if let Some((uid, gid)) = ids {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))
                .expect("chmod");
            std::os::unix::fs::chown(&data, Some(uid), Some(gid)).expect("chown");
        }
        let as_user = |command: &mut Command| {
            if let Some((uid, gid)) = ids {
                command.uid(uid).gid(gid);
            }
        };
        let mut initdb = Command::new(bin.join("initdb"));
        initdb
            .arg("-D")
            .arg(&data)
            .args(["-U", "referee", "--auth=trust", "--no-sync", "-E", "UTF8"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        as_user(&mut initdb);
        let out = initdb.output().expect("initdb runs");
        assert!(
            out.status.success(),
            "initdb: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let port = free_port();
        let mut postgres = Command::new(bin.join("postgres"));
        postgres
            .arg("-D")
            .arg(&data)
            .args(["-p", &port.to_string()])
            .args(["-c", "listen_addresses=127.0.0.1"])
            .args(["-c", "unix_socket_directories="])
            .args(["-c", "max_connections=200"])
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        as_user(&mut postgres);
        let child = postgres.spawn().expect("postgres starts");
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "postgres does not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let server = Self {
            url: format!("postgres://referee@127.0.0.1:{port}/postgres"),
            port,
            child,
            _dir: dir,
        };
        server.wait_ready(started);
        server
    }

    /// Waits until the server accepts a session (it listens a moment
    /// before), on a thread of its own (the caller may be async).
    fn wait_ready(&self, started: Instant) {
        std::thread::scope(|scope| {
            scope
                .spawn(|| self.wait_ready_here(started))
                .join()
                .expect("waited");
        });
    }

    fn wait_ready_here(&self, started: Instant) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async {
            loop {
                match tokio_postgres::connect(&self.url, tokio_postgres::NoTls).await {
                    Ok(_) => return,
                    Err(e) => assert!(
                        started.elapsed() < Duration::from_secs(30),
                        "postgres at {} does not take sessions: {e}",
                        self.url
                    ),
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        });
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // A fast shutdown (SIGINT), then waited for.
        let _ = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status();
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
