//! Action profiles and selectors (`implementation = ...` of a table).
//!
//! A profile holds members: an action of the table's list with its
//! control-plane arguments. Entries of the tables using the profile point
//! to a member, or (with a selector) to a group of members; a group hit
//! picks one member by a hash of the table's `selector` keys, so one flow
//! always takes the same member. Members of a group have weights: the hash
//! picks among them as if each appeared `weight` times (running sums of
//! the weights, kept when the group is written, and a binary search per
//! packet: no allocation). A one-shot group ([`Target::OneShot`]) holds
//! members of its own, for a control plane's one-shot action sets, and
//! may hold a group action ([`ActionProfile::set_one_shot_group_action`]):
//! an action every hit of the group runs before the member picked
//! ([`ActionProfile::group_action`]).
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
    /// A one-shot group: its members are its own (see
    /// [`ActionProfile::add_one_shot`]); its ids are a namespace apart from
    /// the members' and groups'.
    OneShot(u32),
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
    #[error("one-shot group {0} already exists")]
    DuplicateOneShot(u32),
    #[error("no one-shot group {0}")]
    NoOneShot(u32),
}

/// The weights of a group's members as running sums: a hash `h` picks the
/// first member whose sum exceeds `h % total`, so each member is picked as
/// if it appeared `weight` times (a binary search, no allocation). The
/// sums are of the weights divided by their greatest common divisor, so
/// weights that are all the same pick exactly as weights of 1 do.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Weights {
    /// As given.
    weights: Vec<u32>,
    /// Their sum.
    total: u64,
    /// Running sums of the reduced weights.
    cumulative: Vec<u64>,
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Weights {
    fn new(weights: Vec<u32>) -> Weights {
        let divisor = weights.iter().fold(0, |g, &w| gcd(g, w)).max(1);
        let mut sum = 0u64;
        let cumulative = weights
            .iter()
            .map(|&w| {
                sum = sum.saturating_add(u64::from(w / divisor));
                sum
            })
            .collect();
        let total = weights
            .iter()
            .fold(0u64, |t, &w| t.saturating_add(u64::from(w)));
        Weights {
            weights,
            total,
            cumulative,
        }
    }

    fn total(&self) -> u64 {
        self.total
    }

    fn len(&self) -> u64 {
        self.weights.len() as u64
    }

    /// The position picked for hash `h` (`None` when the weights sum to 0).
    fn pick(&self, h: u64) -> Option<usize> {
        let total = self.cumulative.last().copied().unwrap_or(0);
        if total == 0 {
            return None;
        }
        let r = h % total;
        let at = self.cumulative.partition_point(|&c| c <= r);
        // A member of weight 0 is never picked: partition_point skips the
        // sums equal to the one before.
        (at < self.cumulative.len()).then_some(at)
    }
}

/// A group: member ids (sorted, so the choice does not depend on the order
/// they were given in) with their weights.
#[derive(Clone, Debug)]
struct Group {
    members: Vec<u32>,
    weights: Weights,
}

/// A one-shot group: members of its own, in the order given, and the
/// action every hit of the group runs first, if any.
#[derive(Clone, Debug)]
struct OneShot {
    members: Vec<Member>,
    weights: Weights,
    group_action: Option<Member>,
}

/// The members and groups of one profile instance.
#[derive(Clone, Debug)]
pub struct ActionProfile {
    members: BTreeMap<u32, Member>,
    groups: BTreeMap<u32, Group>,
    one_shots: BTreeMap<u32, OneShot>,
    /// Members the one-shot groups hold (they count against `max_size`).
    one_shot_members: usize,
    /// Over every group (one-shot groups included): the members they list
    /// and the sum of their weights.
    group_members: u64,
    group_weight: u64,
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
            one_shots: BTreeMap::new(),
            one_shot_members: 0,
            group_members: 0,
            group_weight: 0,
            max_size,
            selector,
        }
    }

    pub fn has_selector(&self) -> bool {
        self.selector.is_some()
    }

    /// Members held, one-shot groups' own included.
    pub fn member_count(&self) -> usize {
        self.members.len().saturating_add(self.one_shot_members)
    }

    /// Groups held, one-shot groups included.
    pub fn group_count(&self) -> usize {
        self.groups.len().saturating_add(self.one_shots.len())
    }

    /// Over every group (one-shot groups included): the members they list
    /// (a member in two groups counts twice) and the sum of their weights.
    pub fn group_totals(&self) -> (u64, u64) {
        (self.group_members, self.group_weight)
    }

    /// The (members, sum of weights) of the group `target` names (a
    /// member: `None`).
    pub fn group_size(&self, target: Target) -> Option<(u64, u64)> {
        let w = match target {
            Target::Member(_) => return None,
            Target::Group(id) => &self.groups.get(&id)?.weights,
            Target::OneShot(id) => &self.one_shots.get(&id)?.weights,
        };
        Some((w.len(), w.total()))
    }

    pub fn add_member(&mut self, id: u32, m: Member) -> Result<(), ProfileError> {
        if self.members.contains_key(&id) {
            return Err(ProfileError::DuplicateMember(id));
        }
        if self.member_count() >= self.max_size {
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
        if let Some((g, _)) = self
            .groups
            .iter()
            .find(|(_, g)| g.members.binary_search(&id).is_ok())
        {
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

    /// Creates a group with `members` (each must exist), each of weight 1.
    pub fn add_group(&mut self, id: u32, members: &[u32]) -> Result<(), ProfileError> {
        self.add_weighted_group(id, &unweighted(members))
    }

    /// Creates a group of (member, weight) pairs (each member must exist;
    /// a member given twice gets the sum of its weights; a member of
    /// weight 0 is never picked).
    pub fn add_weighted_group(
        &mut self,
        id: u32,
        members: &[(u32, u32)],
    ) -> Result<(), ProfileError> {
        if self.selector.is_none() {
            return Err(ProfileError::NoSelector);
        }
        if self.groups.contains_key(&id) {
            return Err(ProfileError::DuplicateGroup(id));
        }
        if self.group_count() >= self.max_size {
            return Err(ProfileError::Full(self.max_size));
        }
        let group = self.checked_members(members)?;
        self.count_group(&group.weights, true);
        self.groups.insert(id, group);
        Ok(())
    }

    /// Replaces the members of a group, each of weight 1.
    pub fn set_group(&mut self, id: u32, members: &[u32]) -> Result<(), ProfileError> {
        self.set_weighted_group(id, &unweighted(members))
    }

    /// Replaces the (member, weight) pairs of a group.
    pub fn set_weighted_group(
        &mut self,
        id: u32,
        members: &[(u32, u32)],
    ) -> Result<(), ProfileError> {
        let group = self.checked_members(members)?;
        let old = self.groups.remove(&id).ok_or(ProfileError::NoGroup(id))?;
        self.count_group(&old.weights, false);
        self.count_group(&group.weights, true);
        self.groups.insert(id, group);
        Ok(())
    }

    pub fn remove_group(&mut self, id: u32) -> Result<Vec<u32>, ProfileError> {
        let g = self.groups.remove(&id).ok_or(ProfileError::NoGroup(id))?;
        self.count_group(&g.weights, false);
        Ok(g.members)
    }

    /// The member ids of a group, sorted.
    pub fn group(&self, id: u32) -> Option<&[u32]> {
        self.groups.get(&id).map(|g| g.members.as_slice())
    }

    /// The weights of a group's members, in the order of [`Self::group`].
    pub fn group_weights(&self, id: u32) -> Option<&[u32]> {
        self.groups.get(&id).map(|g| g.weights.weights.as_slice())
    }

    pub fn groups(&self) -> impl Iterator<Item = (u32, &[u32])> {
        self.groups
            .iter()
            .map(|(id, g)| (*id, g.members.as_slice()))
    }

    /// Creates a one-shot group: (member, weight) pairs of its own, picked
    /// among as a group's are, in the order given. Its members count
    /// against `max_size` as members, the group as a group.
    pub fn add_one_shot(
        &mut self,
        id: u32,
        members: Vec<(Member, u32)>,
    ) -> Result<(), ProfileError> {
        if self.selector.is_none() {
            return Err(ProfileError::NoSelector);
        }
        if self.one_shots.contains_key(&id) {
            return Err(ProfileError::DuplicateOneShot(id));
        }
        if self.group_count() >= self.max_size
            || self.member_count().saturating_add(members.len()) > self.max_size
        {
            return Err(ProfileError::Full(self.max_size));
        }
        let one_shot = one_shot(members);
        self.one_shot_members = self.one_shot_members.saturating_add(one_shot.members.len());
        self.count_group(&one_shot.weights, true);
        self.one_shots.insert(id, one_shot);
        Ok(())
    }

    /// Replaces the members of a one-shot group (its old members make room
    /// for the new); its group action stays.
    pub fn set_one_shot(
        &mut self,
        id: u32,
        members: Vec<(Member, u32)>,
    ) -> Result<(), ProfileError> {
        let old = self.one_shots.get(&id).ok_or(ProfileError::NoOneShot(id))?;
        let others = self.member_count().saturating_sub(old.members.len());
        if others.saturating_add(members.len()) > self.max_size {
            return Err(ProfileError::Full(self.max_size));
        }
        let mut new = one_shot(members);
        if let Some(old) = self.one_shots.remove(&id) {
            self.one_shot_members = self.one_shot_members.saturating_sub(old.members.len());
            self.count_group(&old.weights, false);
            new.group_action = old.group_action;
        }
        self.one_shot_members = self.one_shot_members.saturating_add(new.members.len());
        self.count_group(&new.weights, true);
        self.one_shots.insert(id, new);
        Ok(())
    }

    pub fn remove_one_shot(&mut self, id: u32) -> Result<(), ProfileError> {
        let old = self
            .one_shots
            .remove(&id)
            .ok_or(ProfileError::NoOneShot(id))?;
        self.one_shot_members = self.one_shot_members.saturating_sub(old.members.len());
        self.count_group(&old.weights, false);
        Ok(())
    }

    /// The (member, weight) pairs of a one-shot group, in the order given.
    pub fn one_shot(&self, id: u32) -> Option<impl Iterator<Item = (&Member, u32)>> {
        let o = self.one_shots.get(&id)?;
        Some(o.members.iter().zip(o.weights.weights.iter().copied()))
    }

    /// Sets (or, with `None`, clears) the group action of a one-shot
    /// group: an action (of the tables' list, with its arguments) that
    /// every hit of the group runs before the member the selector picks.
    /// It is not a member: it takes no room and is never picked. Gives the
    /// group action it replaces.
    pub fn set_one_shot_group_action(
        &mut self,
        id: u32,
        action: Option<Member>,
    ) -> Result<Option<Member>, ProfileError> {
        let o = self
            .one_shots
            .get_mut(&id)
            .ok_or(ProfileError::NoOneShot(id))?;
        Ok(std::mem::replace(&mut o.group_action, action))
    }

    /// The group action `target` runs before its member: a one-shot
    /// group's, if it has one (members and client groups have none).
    pub fn group_action(&self, target: Target) -> Option<&Member> {
        match target {
            Target::OneShot(id) => self.one_shots.get(&id)?.group_action.as_ref(),
            Target::Member(_) | Target::Group(_) => None,
        }
    }

    fn count_group(&mut self, w: &Weights, add: bool) {
        if add {
            self.group_members = self.group_members.saturating_add(w.len());
            self.group_weight = self.group_weight.saturating_add(w.total());
        } else {
            self.group_members = self.group_members.saturating_sub(w.len());
            self.group_weight = self.group_weight.saturating_sub(w.total());
        }
    }

    fn checked_members(&self, members: &[(u32, u32)]) -> Result<Group, ProfileError> {
        let mut sorted = members.to_vec();
        sorted.sort_unstable_by_key(|&(m, _)| m);
        if let Some(&(m, _)) = sorted.iter().find(|(m, _)| !self.members.contains_key(m)) {
            return Err(ProfileError::NoMember(m));
        }
        let mut ids: Vec<u32> = Vec::with_capacity(sorted.len());
        let mut weights: Vec<u32> = Vec::with_capacity(sorted.len());
        for (m, w) in sorted {
            if ids.last() == Some(&m)
                && let Some(last) = weights.last_mut()
            {
                *last = last.saturating_add(w);
                continue;
            }
            ids.push(m);
            weights.push(w);
        }
        Ok(Group {
            members: ids,
            weights: Weights::new(weights),
        })
    }

    /// The member `target` stands for: itself, or for a group the member
    /// the selector hash of `selector_keys` picks, each member as often as
    /// its weight says (`None` for an empty group, one whose weights are
    /// all 0, or a missing id).
    pub fn resolve(&self, target: Target, selector_keys: &[Bits]) -> Option<&Member> {
        let hash = |n: usize| match (n, self.selector) {
            (0 | 1, _) | (_, None) => 0,
            (_, Some(hash)) => with_key_bytes(selector_keys, hash),
        };
        match target {
            Target::Member(id) => self.members.get(&id),
            Target::Group(id) => {
                let g = self.groups.get(&id)?;
                let pick = g.weights.pick(hash(g.members.len()))?;
                self.members.get(g.members.get(pick)?)
            }
            Target::OneShot(id) => {
                let o = self.one_shots.get(&id)?;
                let pick = o.weights.pick(hash(o.members.len()))?;
                o.members.get(pick)
            }
        }
    }
}

fn unweighted(members: &[u32]) -> Vec<(u32, u32)> {
    members.iter().map(|&m| (m, 1)).collect()
}

fn one_shot(members: Vec<(Member, u32)>) -> OneShot {
    let (members, weights): (Vec<Member>, Vec<u32>) = members.into_iter().unzip();
    OneShot {
        members,
        weights: Weights::new(weights),
        group_action: None,
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
        assert_eq!(
            ap.add_one_shot(1, vec![(member(0, 1), 1)]),
            Err(ProfileError::NoSelector)
        );
    }

    /// How often each member's argument is picked over the one-byte keys
    /// 0..n (sum_hash of one byte k is k).
    fn spread(ap: &ActionProfile, target: Target, n: u64) -> BTreeMap<u64, u64> {
        let mut out = BTreeMap::new();
        for k in 0..n {
            let key = [Bits::from_u64(8, false, k)];
            let m = ap.resolve(target, &key).expect("a member");
            *out.entry(m.args[0].to_u64().unwrap()).or_default() += 1;
        }
        out
    }

    #[test]
    fn weights_pick_each_member_as_often_as_its_weight_says() {
        let mut ap = ActionProfile::new(8, Some(sum_hash));
        for id in 1..=3 {
            ap.add_member(id, member(0, u64::from(id))).unwrap();
        }
        // Given out of order: kept sorted by member id.
        ap.add_weighted_group(1, &[(3, 3), (1, 1), (2, 2)]).unwrap();
        assert_eq!(ap.group(1), Some(&[1, 2, 3][..]));
        assert_eq!(ap.group_weights(1), Some(&[1, 2, 3][..]));
        assert_eq!(ap.group_size(Target::Group(1)), Some((3, 6)));
        // Key k picks position k % 6 of [1, 2, 2, 3, 3, 3].
        for k in 0..12u64 {
            let key = [Bits::from_u64(8, false, k)];
            let want = [1, 2, 2, 3, 3, 3][(k % 6) as usize];
            assert_eq!(ap.resolve(Target::Group(1), &key), Some(&member(0, want)));
        }
        let got = spread(&ap, Target::Group(1), 240);
        assert_eq!(got, BTreeMap::from([(1, 40), (2, 80), (3, 120)]));
        // A member of weight 0 is never picked; weights all 0: no member.
        ap.set_weighted_group(1, &[(1, 0), (2, 1)]).unwrap();
        assert_eq!(spread(&ap, Target::Group(1), 10), BTreeMap::from([(2, 10)]));
        ap.set_weighted_group(1, &[(1, 0)]).unwrap();
        assert_eq!(ap.resolve(Target::Group(1), &[]), None);
        // Weights scaled by a common factor pick exactly as before.
        ap.set_weighted_group(1, &[(1, 4), (2, 8), (3, 12)])
            .unwrap();
        assert_eq!(ap.group_size(Target::Group(1)), Some((3, 24)));
        for k in 0..12u64 {
            let key = [Bits::from_u64(8, false, k)];
            let want = [1, 2, 2, 3, 3, 3][(k % 6) as usize];
            assert_eq!(ap.resolve(Target::Group(1), &key), Some(&member(0, want)));
        }
        // Unweighted groups pick as before: key k takes member k % n.
        ap.set_group(1, &[1, 2, 3]).unwrap();
        assert_eq!(ap.group_weights(1), Some(&[1, 1, 1][..]));
        assert_eq!(ap.group_totals(), (3, 3));
        ap.remove_group(1).unwrap();
        assert_eq!(ap.group_totals(), (0, 0));
    }

    #[test]
    fn one_shot_groups_hold_their_own_members() {
        let mut ap = ActionProfile::new(4, Some(sum_hash));
        ap.add_member(1, member(0, 1)).unwrap();
        ap.add_one_shot(7, vec![(member(0, 5), 1), (member(0, 6), 3)])
            .unwrap();
        assert_eq!(ap.member_count(), 3);
        assert_eq!(ap.group_count(), 1);
        assert_eq!(ap.group_totals(), (2, 4));
        assert_eq!(
            ap.add_one_shot(7, vec![(member(0, 5), 1)]),
            Err(ProfileError::DuplicateOneShot(7))
        );
        // One-shot ids are not group ids.
        assert_eq!(ap.group(7), None);
        assert_eq!(
            spread(&ap, Target::OneShot(7), 8),
            BTreeMap::from([(5, 2), (6, 6)])
        );
        // Their members count against the size: 1 + 2 + 2 > 4.
        assert_eq!(
            ap.add_one_shot(8, vec![(member(0, 1), 1), (member(0, 2), 1)]),
            Err(ProfileError::Full(4))
        );
        // Replacing makes room from the old members: 1 + 3 <= 4.
        ap.set_one_shot(
            7,
            vec![(member(0, 1), 1), (member(0, 2), 1), (member(0, 3), 1)],
        )
        .unwrap();
        assert_eq!(ap.member_count(), 4);
        assert_eq!(ap.group_totals(), (3, 3));
        let listed: Vec<(u64, u32)> = ap
            .one_shot(7)
            .unwrap()
            .map(|(m, w)| (m.args[0].to_u64().unwrap(), w))
            .collect();
        assert_eq!(listed, vec![(1, 1), (2, 1), (3, 1)]);
        assert_eq!(ap.add_member(2, member(0, 2)), Err(ProfileError::Full(4)));
        ap.remove_one_shot(7).unwrap();
        assert_eq!(ap.remove_one_shot(7), Err(ProfileError::NoOneShot(7)));
        assert_eq!(ap.member_count(), 1);
        assert_eq!(ap.group_totals(), (0, 0));
        assert_eq!(ap.resolve(Target::OneShot(7), &[]), None);
    }

    #[test]
    fn a_one_shot_group_action_is_kept_apart_from_its_members() {
        let mut ap = ActionProfile::new(4, Some(sum_hash));
        ap.add_member(1, member(0, 1)).unwrap();
        ap.add_weighted_group(1, &[(1, 1)]).unwrap();
        ap.add_one_shot(7, vec![(member(0, 5), 1), (member(0, 6), 1)])
            .unwrap();
        assert_eq!(ap.group_action(Target::OneShot(7)), None);
        assert_eq!(
            ap.set_one_shot_group_action(7, Some(member(1, 9))),
            Ok(None)
        );
        assert_eq!(ap.group_action(Target::OneShot(7)), Some(&member(1, 9)));
        // Not a member: no room taken, never picked.
        assert_eq!(ap.member_count(), 3);
        assert_eq!(ap.group_totals(), (3, 3));
        assert_eq!(
            spread(&ap, Target::OneShot(7), 8),
            BTreeMap::from([(5, 4), (6, 4)])
        );
        // Members and client groups have none.
        assert_eq!(ap.group_action(Target::Member(1)), None);
        assert_eq!(ap.group_action(Target::Group(1)), None);
        // New members keep it; it is replaced or cleared on its own.
        ap.set_one_shot(7, vec![(member(0, 4), 1)]).unwrap();
        assert_eq!(ap.group_action(Target::OneShot(7)), Some(&member(1, 9)));
        assert_eq!(
            ap.set_one_shot_group_action(7, None),
            Ok(Some(member(1, 9)))
        );
        assert_eq!(ap.group_action(Target::OneShot(7)), None);
        assert_eq!(
            ap.set_one_shot_group_action(8, Some(member(1, 1))),
            Err(ProfileError::NoOneShot(8))
        );
        ap.set_one_shot_group_action(7, Some(member(1, 2))).unwrap();
        ap.remove_one_shot(7).unwrap();
        assert_eq!(ap.group_action(Target::OneShot(7)), None);
    }
}
