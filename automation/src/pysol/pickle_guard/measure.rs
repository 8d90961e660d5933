//! The after-`STOP` checks of [`super::check`]: nesting depth, fully expanded size and
//! cycles of the object graph the walker built.

use super::vm::{Item, Kind, Vm};
use super::PickleError;

impl Vm<'_> {
    /// Depth and expanded size of `root`, iteratively (no recursion), rejecting cycles.
    pub(super) fn measure(&self, root: Item) -> Result<(usize, u64), PickleError> {
        let root = match root {
            Item::Leaf(w) => return Ok((0, w)),
            Item::Node(n) => n,
        };
        const NEW: u8 = 0;
        const OPEN: u8 = 1;
        const DONE: u8 = 2;
        let mut state = vec![NEW; self.nodes.len()];
        let mut depth = vec![0usize; self.nodes.len()];
        let mut size = vec![0u64; self.nodes.len()];
        let mut work: Vec<(u32, usize)> = vec![(root, 0)];
        state[root as usize] = OPEN;
        while let Some(&mut (n, ref mut next)) = work.last_mut() {
            let node = &self.nodes[n as usize];
            if let Some(&c) = node.children.get(*next) {
                *next += 1;
                match state[c as usize] {
                    OPEN => {
                        return Err(PickleError::Limit(
                            "recursive structure: an object contains itself".into(),
                        ))
                    }
                    NEW => {
                        state[c as usize] = OPEN;
                        work.push((c, 0));
                    }
                    _ => {}
                }
                continue;
            }
            let is_container = !matches!(node.kind, Kind::Str | Kind::Scalar | Kind::Class);
            let mut d = 0;
            let mut s = node.weight;
            for &c in &node.children {
                d = d.max(depth[c as usize]);
                s = s.saturating_add(size[c as usize]);
            }
            depth[n as usize] = d + usize::from(is_container);
            size[n as usize] = s;
            state[n as usize] = DONE;
            if depth[n as usize] > self.limits.max_depth {
                return Err(PickleError::Limit(format!(
                    "nesting deeper than {} levels",
                    self.limits.max_depth
                )));
            }
            if s > self.limits.max_expanded {
                return Err(PickleError::Limit(format!(
                    "expanded size over {} units (shared objects are copied when decoded)",
                    self.limits.max_expanded
                )));
            }
            work.pop();
        }
        Ok((depth[root as usize], size[root as usize]))
    }
}
