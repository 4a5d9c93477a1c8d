//! ONNX Runtime for the whole process: one environment, loaded once from the
//! shared library, and sessions for the project's models.
//!
//! The library is found, in order, at `ORT_DYLIB_PATH`, beside the running
//! executable, or in the project's `.native/onnxruntime/` (where
//! `scripts/setup` puts it). ONNX Runtime allows one environment a process,
//! so it lives in a `OnceLock`.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use ort::environment::Environment;
use ort::session::Session;

use crate::{Error, Result};

/// The file name ONNX Runtime's library has on Linux (its SONAME).
pub const LIBRARY_NAME: &str = "libonnxruntime.so.1";

static ENVIRONMENT: OnceLock<Environment> = OnceLock::new();
static LOADING: Mutex<()> = Mutex::new(());

/// Where the ONNX Runtime library is taken from: `ORT_DYLIB_PATH`, else
/// beside the executable, else the project's `.native/onnxruntime/`.
pub fn library_path() -> PathBuf {
    if let Some(path) = chosen(std::env::var_os("ORT_DYLIB_PATH")) {
        return path;
    }
    let native = Path::new("onnxruntime").join(LIBRARY_NAME);
    installed(Path::new(LIBRARY_NAME), &native).unwrap_or_else(|| Path::new(".native").join(native))
}

/// The library a user chose with `ORT_DYLIB_PATH`: set and not empty
/// (`ORT_DYLIB_PATH=` is how a shell unsets it for one command).
fn chosen(variable: Option<std::ffi::OsString>) -> Option<PathBuf> {
    variable.filter(|path| !path.is_empty()).map(PathBuf::from)
}

/// The first of `beside` next to the running executable, and `native`
/// under the project's `.native/` (from `target/{debug,release}[/deps]`, the
/// project's root is up to three folders above), that exists.
pub(crate) fn installed(beside: &Path, native: &Path) -> Option<PathBuf> {
    let exe_dir = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))?;
    std::iter::once(exe_dir.join(beside))
        .chain(
            exe_dir
                .ancestors()
                .skip(1)
                .take(3)
                .map(|up| up.join(".native").join(native)),
        )
        .find(|path| path.exists())
}

/// The process's ONNX Runtime environment, loading the library on first use.
pub fn environment() -> Result<&'static Environment> {
    if let Some(env) = ENVIRONMENT.get() {
        return Ok(env);
    }
    // ONNX Runtime refuses a second environment: let one thread build it.
    let _loading = LOADING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(env) = ENVIRONMENT.get() {
        return Ok(env);
    }
    let path = library_path();
    if !path.exists() {
        return Err(Error::RuntimeMissing { path });
    }
    let builder = ort::init_from(&path).map_err(|e| Error::RuntimeLoad {
        path: path.clone(),
        reason: e.to_string(),
    })?;
    let env = builder
        .with_name("referee")
        .build()
        .map_err(|source| Error::Onnx {
            doing: "creating the environment".into(),
            source,
        })?;
    Ok(ENVIRONMENT.get_or_init(|| env))
}

/// A session for the ONNX model at `path`, on the CPU with `threads` intra-op threads.
pub fn load_model(path: &Path, threads: usize) -> Result<Session> {
    let env = environment()?;
    let doing = |what: &str| format!("{what} {}", path.display());
    Session::builder(env)
        .and_then(|builder| builder.with_intra_threads(threads).map_err(Into::into))
        .and_then(|mut builder| builder.commit_from_file(path))
        .map_err(|source| Error::Onnx {
            doing: doing("loading the model"),
            source,
        })
}

/// A session for a model held in memory (the detector is built into the
/// executable), on the CPU with `threads` intra-op threads; `name` says which.
pub fn load_model_from_memory(bytes: &[u8], threads: usize, name: &str) -> Result<Session> {
    let env = environment()?;
    Session::builder(env)
        .and_then(|builder| builder.with_intra_threads(threads).map_err(Into::into))
        .and_then(|mut builder| builder.commit_from_memory(bytes))
        .map_err(|source| Error::Onnx {
            doing: format!("loading the {name} model"),
            source,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_library_variable_is_no_choice() {
        assert_eq!(chosen(None), None);
        assert_eq!(chosen(Some("".into())), None);
        assert_eq!(
            chosen(Some("/opt/ort/libonnxruntime.so.1".into())),
            Some(PathBuf::from("/opt/ort/libonnxruntime.so.1"))
        );
    }
}
