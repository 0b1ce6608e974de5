//! Disjoint sets (union–find) over `0..n`: which items end up in one group when pairs of
//! them are joined. Drift between copies of a skill and agent identities use it.

use std::collections::BTreeMap;

/// A partition of `0..n`, joined pair by pair.
#[derive(Debug, Clone)]
pub struct Disjoint {
    parent: Vec<usize>,
}

impl Disjoint {
    /// `n` items, each in a group of its own.
    pub fn new(n: usize) -> Disjoint {
        Disjoint {
            parent: (0..n).collect(),
        }
    }

    /// The representative of `i`'s group: its smallest member.
    pub fn find(&mut self, i: usize) -> usize {
        let mut r = i;
        while self.parent[r] != r {
            r = self.parent[r];
        }
        let mut c = i;
        while self.parent[c] != r {
            let n = self.parent[c];
            self.parent[c] = r;
            c = n;
        }
        r
    }

    /// Puts `a` and `b` in one group.
    pub fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra.max(rb)] = ra.min(rb);
        }
    }

    /// Every group, in ascending order of members, ordered by its smallest member.
    pub fn groups(&mut self) -> Vec<Vec<usize>> {
        let mut out: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for i in 0..self.parent.len() {
            let r = self.find(i);
            out.entry(r).or_default().push(i);
        }
        out.into_values().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_follow_the_joins() {
        let mut d = Disjoint::new(6);
        d.union(4, 1);
        d.union(1, 3);
        d.union(5, 2);
        assert_eq!(d.groups(), vec![vec![0], vec![1, 3, 4], vec![2, 5]]);
        assert_eq!(d.find(4), d.find(3));
        assert_ne!(d.find(0), d.find(2));
    }
}
