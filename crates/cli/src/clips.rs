//! `referee replay --evidence DIR`: the clip of every incident the replay
//! raises, cut from the video's recent frames as the service cuts it, its
//! frames and manifest written to DIR.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use opencv::core::Mat;
use referee_evidence::{Clip, FrameRing, Sighting, Story, cut};
use referee_rules::Update;
use referee_watch::{BoardWatch, Seen};

/// Clips written so far, and the frames they are cut from.
#[derive(Debug)]
pub struct Clips {
    dir: PathBuf,
    ring: FrameRing,
    /// The manifest of each incident's clip, by the incident's id.
    written: HashMap<String, PathBuf>,
    /// The most bytes the ring held, and each clip's bytes and frames.
    ring_peak: usize,
    sizes: Vec<(usize, usize)>,
}

impl Clips {
    pub fn writing_to(dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--evidence: cannot make {}", dir.display()))?;
        Ok(Self {
            dir: dir.to_path_buf(),
            ring: FrameRing::default(),
            written: HashMap::new(),
            ring_peak: 0,
            sizes: Vec::new(),
        })
    }

    /// The frame `image` taken at `t`, once `watch` has looked at it, and
    /// what it made known: the clips of the incidents it raised.
    pub fn follow(&mut self, watch: &BoardWatch, image: &Mat, t: f64, seen: &Seen) -> Result<()> {
        if self.ring.wants(t) {
            // Encoded as the service encodes frames that came otherwise.
            let jpeg = referee_server::frames::to_jpeg(image)
                .map_err(|e| anyhow::anyhow!("encoding a frame for the evidence: {e}"))?;
            self.ring.keep(Sighting {
                t,
                jpeg: Arc::from(jpeg),
                glance: watch.glance(),
                board: watch.view(),
            });
            self.ring_peak = self.ring_peak.max(self.ring.bytes());
        }
        let mut moved = false;
        for update in &seen.updates {
            match update {
                Update::Incident(incident) => {
                    let story = Story::of(incident, &incident.id, watch.referee());
                    let prefix = format!("{}-clip", incident.id);
                    if let Some(clip) = cut(&self.ring, &story, &prefix)? {
                        let path = self.write(&clip, &prefix)?;
                        self.sizes
                            .push((clip.manifest.bytes, clip.manifest.frames.len()));
                        self.written.insert(incident.id.clone(), path);
                    }
                }
                Update::Move(_) => moved = true,
                _ => {}
            }
        }
        self.ring.follow_turn(watch.first_contact(), moved);
        Ok(())
    }

    fn write(&self, clip: &Clip, prefix: &str) -> Result<PathBuf> {
        let write = |name: &str, bytes: &[u8]| {
            let path = self.dir.join(name);
            std::fs::write(&path, bytes)
                .with_context(|| format!("--evidence: cannot write {}", path.display()))?;
            Ok::<_, anyhow::Error>(path)
        };
        for (name, jpeg) in clip.files() {
            write(name, jpeg)?;
        }
        write(&Clip::manifest_name(prefix), &clip.manifest_json())
    }

    /// What the evidence cost, for the verdict's stats: the ring's peak
    /// bytes, and the clips' count, largest size and most frames.
    pub fn figures(&self) -> serde_json::Value {
        serde_json::json!({
            "ring_peak_bytes": self.ring_peak,
            "clips": self.sizes.len(),
            "clip_bytes_max": self.sizes.iter().map(|s| s.0).max().unwrap_or(0),
            "clip_bytes_total": self.sizes.iter().map(|s| s.0).sum::<usize>(),
            "clip_frames_max": self.sizes.iter().map(|s| s.1).max().unwrap_or(0),
        })
    }

    /// Where the clip of incident `id` was written, if one was.
    pub fn of(&self, id: &str) -> Option<&Path> {
        self.written.get(id).map(PathBuf::as_path)
    }
}
