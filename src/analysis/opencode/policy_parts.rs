//! opencode's agents as team policies judge them: each Markdown agent file on its own (a
//! keystroke in it costs that agent), the other agents of each view together.

use std::path::Path;

use super::views;
use crate::analysis::agents::Explained;
use crate::analysis::host::Host;
use crate::analysis::provenance::Source;
use crate::analysis::spec::PolicyPart;

/// The policy parts of the project in `dir`: each Markdown agent file of the views below it,
/// judged from the view's config files and itself (a keystroke in it costs that agent).
pub fn parts(host: &dyn Host, dir: &Path) -> Vec<PolicyPart> {
    let all_groups = views::groups(host);
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for (_, view) in views::project_views(host).iter().filter(|(d, _)| d.starts_with(dir)) {
        for &id in view {
            if views::markdown_agent(host, id).is_none() || !seen.insert(id) {
                continue;
            }
            let reduced: Vec<usize> = view
                .iter()
                .copied()
                .filter(|&v| v == id || views::markdown_agent(host, v).is_none())
                .collect();
            out.push(PolicyPart {
                file: id,
                groups: reduced.iter().map(|&i| all_groups[i]).collect(),
                view: reduced,
            });
        }
    }
    out
}

/// The agents a policy judges besides the parts': each view below `dir` judged whole (an agent
/// of one name may have other rules in a package's view, its config merged over the root's),
/// without its Markdown agent files.
pub fn agents(host: &dyn Host, dir: &Path, judge: &mut dyn FnMut(&mut dyn Iterator<Item = Explained<'_>>)) {
    for (view_dir, view) in views::project_views(host)
        .into_iter()
        .filter(|(d, _)| d.starts_with(dir))
    {
        let owned: Vec<&str> = view.iter().filter_map(|&id| views::markdown_agent(host, id)).collect();
        let reduced: Vec<usize> = view
            .iter()
            .copied()
            .filter(|&id| views::markdown_agent(host, id).is_none())
            .collect();
        let agents = views::effective_agents(host, &reduced, &view_dir, None);
        judge(
            &mut agents
                .iter()
                .filter(|a| !owned.contains(&a.name.as_str()))
                .map(super::agents::explained),
        );
    }
}

/// The agent of Markdown file `file`, built from `view` (the view's config files and that file,
/// with their groups) as opencode started in the file's project would, as its file leaves it (a
/// `disable: true` removes it).
pub fn part_agents(
    host: &dyn Host,
    file: usize,
    (view, groups): (&[usize], &[usize]),
    judge: &mut dyn FnMut(&mut dyn Iterator<Item = Explained<'_>>),
) {
    let (Some(name), Some(dir)) = (
        views::markdown_agent(host, file),
        views::project_dir_of_file(host, file),
    ) else {
        return;
    };
    let only: crate::analysis::hash::FxHashSet<&str> = std::iter::once(name).collect();
    let agents = views::effective_agents_in(host, view, groups, &dir, Some(&only));
    judge(
        &mut agents
            .iter()
            .filter(|a| {
                a.definitions
                    .iter()
                    .any(|d| matches!(d, Source::File { file: f, .. } if *f == file))
            })
            .map(super::agents::explained),
    );
}
