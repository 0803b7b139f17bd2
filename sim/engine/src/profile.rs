//! Action profiles and selectors (`implementation = ...` of a table).
//!
//! A profile holds members: an action of the table's list with its
//! control-plane arguments. Entries of the tables using the profile point
//! to a member, or (with a selector) to a group of members; a group hit
//! picks one member by a hash of the table's `selector` keys, so one flow
//! always takes the same member.
//!
//! ```
//! use janus_engine::profile::{ActionProfile, Member, Target};
//! let mut ap = ActionProfile::new(8, None);
//! ap.add_member(1, Member { action: 0, args: vec![] }).unwrap();
//! assert_eq!(ap.resolve(Target::Member(1), &[]).map(|m| m.action), Some(0));
//! ```

use crate::value::Bits;
use std::collections::BTreeMap;
use thiserror::Error;

/// One action with its arguments, as an entry would hold them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The action's index in the list of the tables using the profile.
    pub action: usize,
    pub args: Vec<Bits>,
}

/// What an indirect table entry points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Member(u32),
    Group(u32),
}

/// A selector's hash: the bytes of the selector keys (concatenated, most
/// significant first) to a number; the architecture supplies it from the
/// algorithm the program names.
pub type SelectorHash = fn(&[u8]) -> u64;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ProfileError {
    #[error("the profile is full ({0} members)")]
    Full(usize),
    #[error("member {0} already exists")]
    DuplicateMember(u32),
    #[error("no member {0}")]
    NoMember(u32),
    #[error("member {0} is still in group {1}")]
    MemberInUse(u32, u32),
    #[error("group {0} already exists")]
    DuplicateGroup(u32),
    #[error("no group {0}")]
    NoGroup(u32),
    #[error("this profile has no selector, so it has no groups")]
    NoSelector,
}

/// The members and groups of one profile instance.
#[derive(Clone, Debug)]
pub struct ActionProfile {
    members: BTreeMap<u32, Member>,
    /// Group id -> member ids (kept sorted, so the choice is stable).
    groups: BTreeMap<u32, Vec<u32>>,
    /// Most members (and most groups) the profile holds.
    pub max_size: usize,
    selector: Option<SelectorHash>,
}

impl ActionProfile {
    /// An empty profile of `max_size` members; `selector` for an
    /// `action_selector`.
    pub fn new(max_size: usize, selector: Option<SelectorHash>) -> ActionProfile {
        ActionProfile {
            members: BTreeMap::new(),
            groups: BTreeMap::new(),
            max_size,
            selector,
        }
    }

    pub fn has_selector(&self) -> bool {
        self.selector.is_some()
    }

    pub fn add_member(&mut self, id: u32, m: Member) -> Result<(), ProfileError> {
        if self.members.contains_key(&id) {
            return Err(ProfileError::DuplicateMember(id));
        }
        if self.members.len() >= self.max_size {
            return Err(ProfileError::Full(self.max_size));
        }
        self.members.insert(id, m);
        Ok(())
    }

    /// Replaces a member's action and arguments.
    pub fn modify_member(&mut self, id: u32, m: Member) -> Result<(), ProfileError> {
        let slot = self
            .members
            .get_mut(&id)
            .ok_or(ProfileError::NoMember(id))?;
        *slot = m;
        Ok(())
    }

    /// Removes a member that no group holds.
    pub fn remove_member(&mut self, id: u32) -> Result<Member, ProfileError> {
        if let Some((g, _)) = self.groups.iter().find(|(_, ms)| ms.contains(&id)) {
            return Err(ProfileError::MemberInUse(id, *g));
        }
        self.members.remove(&id).ok_or(ProfileError::NoMember(id))
    }

    pub fn member(&self, id: u32) -> Option<&Member> {
        self.members.get(&id)
    }

    pub fn members(&self) -> impl Iterator<Item = (u32, &Member)> {
        self.members.iter().map(|(id, m)| (*id, m))
    }

    /// Creates a group with `members` (each must exist).
    pub fn add_group(&mut self, id: u32, members: &[u32]) -> Result<(), ProfileError> {
        if self.selector.is_none() {
            return Err(ProfileError::NoSelector);
        }
        if self.groups.contains_key(&id) {
            return Err(ProfileError::DuplicateGroup(id));
        }
        if self.groups.len() >= self.max_size {
            return Err(ProfileError::Full(self.max_size));
        }
        let members = self.checked_members(members)?;
        self.groups.insert(id, members);
        Ok(())
    }

    /// Replaces the members of a group.
    pub fn set_group(&mut self, id: u32, members: &[u32]) -> Result<(), ProfileError> {
        let members = self.checked_members(members)?;
        let slot = self.groups.get_mut(&id).ok_or(ProfileError::NoGroup(id))?;
        *slot = members;
        Ok(())
    }

    pub fn remove_group(&mut self, id: u32) -> Result<Vec<u32>, ProfileError> {
        self.groups.remove(&id).ok_or(ProfileError::NoGroup(id))
    }

    pub fn group(&self, id: u32) -> Option<&[u32]> {
        self.groups.get(&id).map(Vec::as_slice)
    }

    pub fn groups(&self) -> impl Iterator<Item = (u32, &[u32])> {
        self.groups.iter().map(|(id, ms)| (*id, ms.as_slice()))
    }

    fn checked_members(&self, members: &[u32]) -> Result<Vec<u32>, ProfileError> {
        let mut out = members.to_vec();
        out.sort_unstable();
        out.dedup();
        match out.iter().find(|m| !self.members.contains_key(m)) {
            Some(m) => Err(ProfileError::NoMember(*m)),
            None => Ok(out),
        }
    }

    /// The member `target` stands for: itself, or for a group the member
    /// the selector hash of `selector_keys` picks (`None` for an empty
    /// group or a missing id).
    pub fn resolve(&self, target: Target, selector_keys: &[Bits]) -> Option<&Member> {
        match target {
            Target::Member(id) => self.members.get(&id),
            Target::Group(id) => {
                let members = self.groups.get(&id)?;
                let pick = match (members.len(), self.selector) {
                    (0, _) => return None,
                    (1, _) | (_, None) => 0,
                    (n, Some(hash)) => (with_key_bytes(selector_keys, hash) % n as u64) as usize,
                };
                self.members.get(&members[pick])
            }
        }
    }
}

/// `f` of the selector keys' bits concatenated, most significant first,
/// padded to whole bytes at the end (on the stack up to 64 bytes).
fn with_key_bytes(keys: &[Bits], f: SelectorHash) -> u64 {
    let bits: usize = keys.iter().map(|k| k.width() as usize).sum();
    let n = bits.div_ceil(8);
    let mut inline = [0u8; 64];
    let mut spilled = Vec::new();
    let out: &mut [u8] = if n <= inline.len() {
        &mut inline[..n]
    } else {
        spilled.resize(n, 0);
        &mut spilled
    };
    let mut at = 0;
    for k in keys {
        k.write_bits(out, at);
        at += k.width() as usize;
    }
    f(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(action: usize, arg: u64) -> Member {
        Member {
            action,
            args: vec![Bits::from_u64(9, false, arg)],
        }
    }

    fn sum_hash(bytes: &[u8]) -> u64 {
        bytes.iter().map(|b| u64::from(*b)).sum()
    }

    #[test]
    fn members_groups_and_their_rules() {
        let mut ap = ActionProfile::new(3, Some(sum_hash));
        ap.add_member(10, member(0, 1)).unwrap();
        ap.add_member(11, member(0, 2)).unwrap();
        assert_eq!(
            ap.add_member(10, member(0, 3)),
            Err(ProfileError::DuplicateMember(10))
        );
        ap.add_member(12, member(1, 3)).unwrap();
        assert_eq!(ap.add_member(13, member(0, 4)), Err(ProfileError::Full(3)));
        assert_eq!(ap.add_group(1, &[10, 99]), Err(ProfileError::NoMember(99)));
        ap.add_group(1, &[11, 10]).unwrap();
        assert_eq!(ap.group(1), Some(&[10, 11][..]));
        assert_eq!(ap.remove_member(10), Err(ProfileError::MemberInUse(10, 1)));
        ap.modify_member(12, member(1, 7)).unwrap();
        assert_eq!(ap.member(12), Some(&member(1, 7)));
        ap.set_group(1, &[12]).unwrap();
        assert_eq!(ap.remove_member(10), Ok(member(0, 1)));
        assert_eq!(ap.remove_group(1), Ok(vec![12]));
        assert_eq!(ap.remove_group(1), Err(ProfileError::NoGroup(1)));
    }

    #[test]
    fn a_group_picks_a_member_by_the_selector_hash() {
        let mut ap = ActionProfile::new(8, Some(sum_hash));
        for id in 0..3 {
            ap.add_member(id, member(0, u64::from(id))).unwrap();
        }
        ap.add_group(5, &[0, 1, 2]).unwrap();
        // sum_hash of one byte k is k: member k % 3.
        for k in 0..6u64 {
            let key = [Bits::from_u64(8, false, k)];
            let chosen = ap.resolve(Target::Group(5), &key).unwrap();
            assert_eq!(chosen, &member(0, k % 3), "key {k}");
        }
        ap.add_group(6, &[]).unwrap();
        assert_eq!(ap.resolve(Target::Group(6), &[]), None);
        assert_eq!(ap.resolve(Target::Member(9), &[]), None);
    }

    #[test]
    fn profiles_without_a_selector_have_no_groups() {
        let mut ap = ActionProfile::new(8, None);
        assert_eq!(ap.add_group(1, &[]), Err(ProfileError::NoSelector));
    }
}
