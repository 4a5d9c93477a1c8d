//! `scripts/demo` as a new user meets it: with its port taken it stops at
//! once with the service's reason; stopped with Ctrl-C mid-stream it ends
//! every process it started. It runs this build's `referee`
//! (`REFEREE_DEMO_BIN`), not a release build of its own.

mod common;

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{free_port, scratch};

/// The demo on these ports, in a process group of its own (as a terminal
/// runs a command), its output merged on stdout.
fn demo(grpc: u16, http: u16, out: &std::path::Path) -> Child {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/demo");
    Command::new("bash")
        .arg("-c")
        .arg(format!("exec {} 2>&1", script.display()))
        .env("REFEREE_DEMO_BIN", env!("CARGO_BIN_EXE_referee"))
        .env("REFEREE_DEMO_PORT", grpc.to_string())
        .env("REFEREE_DEMO_HTTP_PORT", http.to_string())
        .env("REFEREE_DEMO_OUT", out)
        .stdout(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("bash runs the demo")
}

/// The demo's lines as they come.
fn lines(child: &mut Child) -> mpsc::Receiver<String> {
    let stdout = child.stdout.take().expect("stdout");
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    receive
}

/// Whether any process of the group `pgid` is still alive.
fn group_alive(pgid: u32) -> bool {
    Command::new("kill")
        .args(["-0", "--", &format!("-{pgid}")])
        .stderr(Stdio::null())
        .status()
        .expect("kill runs")
        .success()
}

/// Waits for `child` to end, at most `limit`.
fn ends_within(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    None
}

/// Waits for the group to empty, at most `limit`.
fn group_ends_within(pgid: u32, limit: Duration) -> bool {
    let started = Instant::now();
    while group_alive(pgid) {
        if started.elapsed() > limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    true
}

#[test]
fn a_taken_port_stops_the_demo_at_once_with_the_services_reason() {
    let taken = TcpListener::bind("127.0.0.1:0").expect("a port to take");
    let port = taken.local_addr().expect("address").port();
    let out = scratch("demo-port-taken");
    let mut child = demo(port, free_port(), &out);
    let pgid = child.id();
    let said = lines(&mut child);
    let status = ends_within(&mut child, Duration::from_secs(60));
    let text: Vec<String> = said.try_iter().collect();
    let text = text.join("\n");
    let Some(status) = status else {
        let _ = Command::new("kill")
            .args(["-9", "--", &format!("-{pgid}")])
            .status();
        panic!("the demo went on with its port taken:\n{text}");
    };
    assert!(!status.success(), "{text}");
    assert!(text.contains("Address already in use"), "{text}");
    assert!(text.contains("demo: the service did not start"), "{text}");
    assert!(!text.contains("[board"), "no ingest started: {text}");
    assert!(
        group_ends_within(pgid, Duration::from_secs(5)),
        "a process the demo started outlived it"
    );
}

#[test]
fn ctrl_c_mid_stream_ends_every_process_the_demo_started() {
    let out = scratch("demo-ctrl-c");
    let mut child = demo(free_port(), free_port(), &out);
    let pgid = child.id();
    let said = lines(&mut child);
    let started = Instant::now();
    let mut text = Vec::new();
    loop {
        match said.recv_timeout(Duration::from_secs(1)) {
            Ok(line) => {
                let streaming = line.starts_with("[board");
                text.push(line);
                if streaming {
                    break;
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                panic!("the demo ended before streaming:\n{}", text.join("\n"))
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no board streamed:\n{}",
            text.join("\n")
        );
    }
    // Ctrl-C in a terminal signals the whole foreground group.
    Command::new("kill")
        .args(["-INT", "--", &format!("-{pgid}")])
        .status()
        .expect("kill runs");
    let status = ends_within(&mut child, Duration::from_secs(15));
    let ended = group_ends_within(pgid, Duration::from_secs(10));
    if !ended {
        let _ = Command::new("kill")
            .args(["-9", "--", &format!("-{pgid}")])
            .status();
    }
    assert!(status.is_some(), "the demo kept running after Ctrl-C");
    assert!(ended, "a process the demo started outlived Ctrl-C");
}
