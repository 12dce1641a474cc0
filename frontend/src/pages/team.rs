//! `/team`: the team in the browser. Every signed-in user sees their teams and members; a team
//! administrator adds members by user name, changes roles, removes members, renames and deletes
//! the team; a server administrator also creates teams and manages users (create, with a
//! password or a one-time sign-in link to hand over; reset a password by a new link; make or
//! unmake administrators; disable and enable). Controls a role cannot use are not shown, and
//! each refusal of the server is said beside the control that caused it.

use crate::api;
use crate::i18n::t;
use crate::session::Session;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{
    Me, Member, MemberAdd, MemberPut, Role, SigninLink, SigninLinkCreate, Team, TeamCreate,
    TeamUpdate, User, UserCreate, UserUpdate,
};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The roles in the order a select offers them.
const ROLES: [Role; 3] = [Role::Viewer, Role::Editor, Role::Admin];

fn role_key(r: Role) -> &'static str {
    match r {
        Role::Viewer => "role.viewer",
        Role::Editor => "role.editor",
        Role::Admin => "role.admin",
    }
}

/// A role picker: `initial` selected, `on_pick` called with each role chosen.
#[component]
fn RoleSelect(
    initial: Role,
    #[prop(optional)] id: Option<&'static str>,
    #[prop(optional)] class: Option<&'static str>,
    #[prop(optional)] label: bool,
    #[prop(into)] on_pick: Callback<Role>,
) -> impl IntoView {
    view! {
        <select id=id class=class aria-label=label.then(|| t("team.role"))
            on:change=move |ev| {
                if let Some(r) = Role::parse(&event_target_value(&ev)) {
                    on_pick.run(r);
                }
            }>
            {ROLES.into_iter().map(|r| view! {
                <option value=r.as_str() selected=r == initial>{t(role_key(r))}</option>
            }).collect_view()}
        </select>
    }
}

/// Whether `me` may manage `team`'s members (its administrator, or a server administrator).
pub fn manages(me: &Me, team: &Team) -> bool {
    me.user.is_admin || team.role == Some(Role::Admin)
}

/// Re-reads who is signed in (teams and roles change here).
fn refresh_session(session: Session) {
    spawn_local(async move {
        if let Ok(me) = api::fetch(ep::GetMe::url([])).await {
            session.0.set(Some(me));
        }
    });
}

#[component]
pub fn TeamPage() -> impl IntoView {
    let session = expect_context::<Session>();
    let me = Memo::new(move |_| session.0.get());
    let is_admin = move || me.with(|m| m.as_ref().is_some_and(|m| m.user.is_admin));
    let teams = RwSignal::new(Vec::<Team>::new());
    let selected = RwSignal::new(None::<i64>);
    let teams_error = RwSignal::new(None::<String>);
    let load_teams = move || {
        spawn_local(async move {
            match api::fetch(ep::ListTeams::url([])).await {
                Ok(list) => {
                    if selected
                        .get_untracked()
                        .is_none_or(|id| !list.iter().any(|t| t.id == id))
                    {
                        selected.set(list.first().map(|t| t.id));
                    }
                    teams.set(list);
                    teams_error.set(None);
                }
                Err(e) => teams_error.set(Some(e.message)),
            }
        });
    };
    load_teams();
    let new_team = RwSignal::new(String::new());
    let new_team_error = RwSignal::new(None::<String>);
    let team_busy = RwSignal::new(false);
    let create_team = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if team_busy.get_untracked() {
            return;
        }
        team_busy.set(true);
        let req = TeamCreate {
            name: new_team.get_untracked().trim().to_string(),
        };
        spawn_local(async move {
            let answer = api::call(ep::CreateTeam::url([]), &req).await;
            team_busy.set(false);
            match answer {
                Ok(team) => {
                    new_team.set(String::new());
                    new_team_error.set(None);
                    selected.set(Some(team.id));
                    load_teams();
                    refresh_session(session);
                }
                Err(e) => new_team_error.set(Some(e.message)),
            }
        });
    };
    view! {
        <section class="card" id="team-page">
            <h2>{t("team.title")}</h2>
            {move || teams_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            {move || {
                let list = teams.get();
                if list.is_empty() {
                    view! { <p id="no-team" class="notice">{move || if is_admin() { t("team.none_admin")() } else { t("team.none")() }}</p> }.into_any()
                } else {
                    view! {
                        <div class="toolbar" role="tablist" aria-label=t("team.teams")>
                            {list.into_iter().map(|team| {
                                let id = team.id;
                                let role = team.role;
                                view! {
                                    <button role="tab" class="team-tab" data-team=team.name.clone()
                                        aria-selected=move || (selected.get() == Some(id)).to_string()
                                        class:active=move || selected.get() == Some(id)
                                        on:click=move |_| selected.set(Some(id))>
                                        {team.name.clone()}
                                        {role.map(|r| view! { " "<span class="muted">"("{t(role_key(r))}")"</span> })}
                                    </button>
                                }
                            }).collect_view()}
                        </div>
                    }.into_any()
                }
            }}
            {move || {
                let team = selected.get().and_then(|id| teams.with(|l| l.iter().find(|t| t.id == id).cloned()))?;
                let me = me.get()?;
                Some(view! { <TeamCard team=team me=me on_change=load_teams /> })
            }}
            {move || is_admin().then(|| view! {
                <form id="new-team" class="toolbar" on:submit=create_team>
                    <label class="inline">{t("team.new_team")}
                        <input id="new-team-name" required maxlength="64" pattern="[A-Za-z0-9._@\\-]+"
                            prop:value=move || new_team.get()
                            on:input=move |ev| new_team.set(event_target_value(&ev)) /></label>
                    <button type="submit" disabled=move || team_busy.get()>{t("team.create_team")}</button>
                    {move || new_team_error.get().map(|e| view! { <span class="error" role="alert">{e}</span> })}
                </form>
            })}
        </section>
        {move || is_admin().then(|| view! { <UsersCard on_change=load_teams /> })}
    }
}

/// One team: its members (roles editable by its administrators), adding a member by name,
/// renaming and deleting the team.
#[component]
fn TeamCard(
    team: Team,
    me: Me,
    on_change: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let session = expect_context::<Session>();
    let id = team.id;
    let can_manage = manages(&me, &team);
    let members = RwSignal::new(Vec::<Member>::new());
    let admins = move || members.with(|ms| ms.iter().filter(|m| m.role == Role::Admin).count());
    // Errors said where they happened: per member row, the add form, the rename form, delete.
    let row_error = RwSignal::new(None::<(i64, String)>);
    let add_error = RwSignal::new(None::<String>);
    let rename_error = RwSignal::new(None::<String>);
    let delete_error = RwSignal::new(None::<String>);
    let load = move || {
        spawn_local(async move {
            match api::fetch(ep::ListMembers::url([&id])).await {
                Ok(list) => members.set(list),
                Err(e) => add_error.set(Some(e.message)),
            }
        });
    };
    load();
    let users = RwSignal::new(Vec::<User>::new());
    if can_manage {
        spawn_local(async move {
            if let Ok(page) = api::fetch(ep::ListUsers::url([]).query("limit", 200)).await {
                users.set(page.items);
            }
        });
    }
    let me_id = me.user.id;
    let set_role = move |user_id: i64, role: Role| {
        spawn_local(async move {
            let url = ep::PutMember::url([&id, &user_id]);
            match api::call(url, &MemberPut { role }).await {
                Ok(list) => {
                    members.set(list);
                    row_error.set(None);
                    if user_id == me_id {
                        refresh_session(session);
                        on_change();
                    }
                }
                Err(e) => {
                    row_error.set(Some((user_id, e.message)));
                    // Rebuild the rows, so the select shows the role kept, not the one picked.
                    members.update(Vec::clear);
                    load();
                }
            }
        });
    };
    let remove = move |user_id: i64| {
        spawn_local(async move {
            match api::fetch(ep::RemoveMember::url([&id, &user_id])).await {
                Ok(_) => {
                    row_error.set(None);
                    load();
                    if user_id == me_id {
                        refresh_session(session);
                        on_change();
                    }
                }
                Err(e) => row_error.set(Some((user_id, e.message))),
            }
        });
    };
    let add_name = RwSignal::new(String::new());
    let add_role = RwSignal::new(Role::Editor);
    // What the last add did, said beside the form (someone already a member has their role
    // changed: said, not done silently), in both languages so that switching keeps it said.
    let add_status = RwSignal::new(None::<ds_studio_shared::i18n::Text>);
    // Read at set-up: a context is not there to be found from inside an event handler.
    let ui_lang = crate::i18n::use_lang();
    let add = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let user = add_name.get_untracked().trim().to_string();
        add_status.set(None);
        if user.is_empty() {
            add_error.set(Some(
                crate::i18n::tr("team.add_empty", ui_lang.get_untracked()).to_string(),
            ));
            return;
        }
        let role = add_role.get_untracked();
        let was =
            members.with_untracked(|m| m.iter().find(|m| m.user_name == user).map(|m| m.role));
        let req = MemberAdd {
            user: user.clone(),
            role,
        };
        spawn_local(async move {
            match api::call(ep::AddMember::url([&id]), &req).await {
                Ok(list) => {
                    members.set(list);
                    add_name.set(String::new());
                    add_error.set(None);
                    let said = |lang| {
                        let text = match was {
                            Some(old) if old == role => {
                                crate::i18n::tr("team.add_same", lang).to_string()
                            }
                            Some(old) => crate::i18n::tr("team.add_changed", lang)
                                .replace("{old}", crate::i18n::tr(role_key(old), lang)),
                            None => crate::i18n::tr("team.add_added", lang).to_string(),
                        };
                        text.replace("{user}", &user)
                            .replace("{role}", crate::i18n::tr(role_key(role), lang))
                    };
                    add_status.set(Some(ds_studio_shared::i18n::Text::new(
                        said(ds_studio_shared::i18n::Lang::En),
                        said(ds_studio_shared::i18n::Lang::Zh),
                    )));
                }
                Err(e) => add_error.set(Some(e.message)),
            }
        });
    };
    let rename_to = RwSignal::new(team.name.clone());
    let rename = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let req = TeamUpdate {
            name: rename_to.get_untracked().trim().to_string(),
        };
        spawn_local(async move {
            match api::call(ep::RenameTeam::url([&id]), &req).await {
                Ok(_) => {
                    rename_error.set(None);
                    on_change();
                    refresh_session(session);
                }
                Err(e) => rename_error.set(Some(e.message)),
            }
        });
    };
    let confirming = RwSignal::new(false);
    let delete_team = move |_| {
        spawn_local(async move {
            match api::fetch(ep::DeleteTeam::url([&id])).await {
                Ok(_) => {
                    confirming.set(false);
                    on_change();
                    refresh_session(session);
                }
                Err(e) => delete_error.set(Some(e.message)),
            }
        });
    };
    let team_name = team.name.clone();
    view! {
        <div class="team-card" data-team-id=id>
            <h3>{t("team.members")}</h3>
            {(!can_manage).then(|| view! { <p class="muted" id="members-readonly">{t("team.only_admins")}</p> })}
            <table class="members" id="members">
                <thead><tr><th>{t("team.user")}</th><th>{t("team.role")}</th><th></th></tr></thead>
                <tbody>
                    <For each=move || members.get() key=|m| (m.user_id, m.role) let:m>
                        {
                            let uid = m.user_id;
                            let role = m.role;
                            view! {
                                <tr data-member=m.user_name.clone()>
                                    <td>{m.user_name.clone()}{(uid == me_id).then(|| view! { " "<span class="muted">{t("team.you")}</span> })}</td>
                                    <td>{if can_manage {
                                        view! {
                                            <RoleSelect initial=role class="member-role" label=true on_pick=move |r| set_role(uid, r) />
                                        }.into_any()
                                    } else {
                                        view! { <span>{t(role_key(role))}</span> }.into_any()
                                    }}</td>
                                    <td>
                                        // The team's only admin cannot be removed (the server refuses): say why
                                        // instead of offering a button that fails.
                                        {move || can_manage.then(|| if role == Role::Admin && admins() == 1 {
                                            view! { <span class="muted last-admin">{t("team.last_admin")}</span> }.into_any()
                                        } else {
                                            view! { <button class="remove-member" on:click=move |_| remove(uid)>{t("team.remove")}</button> }.into_any()
                                        })}
                                        {move || row_error.get().filter(|(u, _)| *u == uid).map(|(_, e)| view! { <span class="error" role="alert">" "{e}</span> })}
                                    </td>
                                </tr>
                            }
                        }
                    </For>
                </tbody>
            </table>
            {can_manage.then(|| view! {
                <form id="add-member" class="toolbar" on:submit=add>
                    <label class="inline">{t("team.add_user")}
                        <input id="add-member-name" required maxlength="64" list="known-users" autocomplete="off"
                            prop:value=move || add_name.get()
                            on:input=move |ev| add_name.set(event_target_value(&ev)) /></label>
                    <datalist id="known-users">
                        <For each=move || users.get() key=|u| u.id let:u>
                            <option value=u.name.clone()>{u.display_name.clone()}</option>
                        </For>
                    </datalist>
                    <label class="inline">{t("team.role")}
                        <RoleSelect initial=Role::Editor id="add-member-role" on_pick=move |r| add_role.set(r) /></label>
                    <button type="submit">{t("team.add")}</button>
                    {move || add_error.get().map(|e| view! { <span class="error" role="alert">{e}</span> })}
                    {move || add_status.get().map(|m| view! { <span class="ok" id="add-member-status" role="status">{m.get(ui_lang.get()).to_string()}</span> })}
                </form>
                <h3>{t("team.settings")}</h3>
                <form id="rename-team" class="toolbar" on:submit=rename>
                    <label class="inline">{t("team.name")}
                        <input id="rename-team-name" required maxlength="64"
                            prop:value=move || rename_to.get()
                            on:input=move |ev| rename_to.set(event_target_value(&ev)) /></label>
                    <button type="submit">{t("team.rename")}</button>
                    {move || rename_error.get().map(|e| view! { <span class="error" role="alert">{e}</span> })}
                </form>
                <div class="toolbar">
                    {move || if confirming.get() {
                        view! {
                            <p class="notice" role="alert" id="delete-team-confirm">{t("team.delete_confirm")}" "<strong>{team_name.clone()}</strong></p>
                            <button class="danger" id="delete-team-yes" on:click=delete_team>{t("team.delete_yes")}</button>
                            <button id="delete-team-no" on:click=move |_| confirming.set(false)>{t("team.cancel")}</button>
                        }.into_any()
                    } else {
                        view! { <button class="danger" id="delete-team" on:click=move |_| { delete_error.set(None); confirming.set(true) }>{t("team.delete")}</button> }.into_any()
                    }}
                    {move || delete_error.get().map(|e| view! { <span class="error" role="alert">{e}</span> })}
                </div>
            })}
        </div>
    }
}

/// The server's users, for a server administrator: create, hand out sign-in links, make or
/// unmake administrators, disable and enable.
#[component]
fn UsersCard(on_change: impl Fn() + Copy + Send + Sync + 'static) -> impl IntoView {
    let session = expect_context::<Session>();
    let users = RwSignal::new(Vec::<User>::new());
    let error = RwSignal::new(None::<String>);
    let row_error = RwSignal::new(None::<(i64, String)>);
    // A reset or a disable waiting for its confirmation, in the user's row.
    let confirm = RwSignal::new(None::<(i64, Pending)>);
    // The last link made: (user name, link), shown with a Copy button until another is made.
    let link = RwSignal::new(None::<(String, SigninLink)>);
    let load = move || {
        spawn_local(async move {
            match api::fetch(ep::ListUsers::url([]).query("limit", 200)).await {
                Ok(page) => users.set(page.items),
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    load();
    let make_link = move |user: User, reset: bool| {
        spawn_local(async move {
            let url = ep::CreateSigninLink::url([&user.id]);
            let req = SigninLinkCreate {
                reset_password: reset,
            };
            match api::call(url, &req).await {
                Ok(l) => {
                    link.set(Some((user.name.clone(), l)));
                    row_error.set(None);
                    load();
                }
                Err(e) => row_error.set(Some((user.id, e.message))),
            }
        });
    };
    let update = move |id: i64, req: UserUpdate| {
        spawn_local(async move {
            match api::call(ep::UpdateUser::url([&id]), &req).await {
                Ok(_) => {
                    row_error.set(None);
                    load();
                    on_change();
                    if session
                        .0
                        .with_untracked(|m| m.as_ref().is_some_and(|m| m.user.id == id))
                    {
                        refresh_session(session);
                    }
                }
                Err(e) => row_error.set(Some((id, e.message))),
            }
        });
    };
    let name = RwSignal::new(String::new());
    let display = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let admin = RwSignal::new(false);
    // The team the new user joins (the first one by default; "" for none) and their role.
    let join_team = RwSignal::new(String::new());
    let join_role = RwSignal::new(Role::Editor);
    let all_teams = Memo::new(move |_| {
        session
            .0
            .with(|m| m.as_ref().map(|m| m.teams.clone()).unwrap_or_default())
    });
    Effect::new(move |_| {
        if join_team.get_untracked().is_empty() {
            if let Some(first) = all_teams.with(|l| l.first().map(|t| t.id)) {
                join_team.set(first.to_string());
            }
        }
    });
    let create_error = RwSignal::new(None::<String>);
    let created = RwSignal::new(None::<String>);
    let creating = RwSignal::new(false);
    let create = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if creating.get_untracked() {
            return;
        }
        creating.set(true);
        let pw = password.get_untracked();
        let d = display.get_untracked();
        let req = UserCreate {
            name: name.get_untracked().trim().to_string(),
            display_name: (!d.trim().is_empty()).then(|| d.trim().to_string()),
            password: (!pw.is_empty()).then_some(pw),
            is_admin: admin.get_untracked(),
            team_id: join_team.get_untracked().parse().ok(),
            role: Some(join_role.get_untracked()),
        };
        let with_link = req.password.is_none();
        created.set(None);
        spawn_local(async move {
            let answer = api::call(ep::CreateUser::url([]), &req).await;
            creating.set(false);
            match answer {
                Ok(user) => {
                    create_error.set(None);
                    // Said, not only seen in the list below.
                    created.set(Some(user.name.clone()));
                    name.set(String::new());
                    display.set(String::new());
                    password.set(String::new());
                    admin.set(false);
                    if with_link {
                        make_link(user, false);
                    } else {
                        link.set(None);
                        load();
                    }
                    // The team's member list shows the new member.
                    on_change();
                }
                Err(e) => create_error.set(Some(e.message)),
            }
        });
    };
    let me_id = move || session.0.with(|m| m.as_ref().map(|m| m.user.id));
    view! {
        <section class="card" id="users">
            <h2>{t("users.title")}</h2>
            <p class="muted">{t("users.hint")}</p>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            {move || link.get().map(|(who, l)| view! { <SigninLinkBox who=who link=l /> })}
            <div class="table-scroll">
            <table id="user-list">
                <thead><tr>
                    <th>{t("team.user")}</th><th>{t("users.display_name")}</th><th>{t("users.status")}</th><th></th>
                </tr></thead>
                <tbody>
                    <For each=move || users.get() key=|u| (u.id, u.is_admin, u.disabled, u.has_password) let:u>
                        {
                            let id = u.id;
                            let is_me = move || me_id() == Some(id);
                            let for_link = u.clone();
                            let for_reset = u.clone();
                            view! {
                                <tr data-user=u.name.clone() class:muted=u.disabled>
                                    <td>{u.name.clone()}{move || is_me().then(|| view! { " "<span class="muted">{t("team.you")}</span> })}</td>
                                    <td>{u.display_name.clone()}</td>
                                    <td>
                                        {u.is_admin.then(|| view! { <span class="badge">{t("users.admin")}</span> })}
                                        {u.disabled.then(|| view! { <span class="badge">{t("users.disabled")}</span> })}
                                        {(!u.has_password).then(|| view! { <span class="badge">{t("users.no_password")}</span> })}
                                    </td>
                                    <td class="actions">
                                        // Your own password is changed in Settings: a reset here
                                        // would sign you out at once.
                                        {move || (!is_me()).then(|| if for_reset.has_password {
                                            let user = for_reset.clone();
                                            view! { <button class="reset-password" disabled=for_reset.disabled on:click=move |_| confirm.set(Some((id, Pending::Reset(user.clone()))))>{t("users.reset")}</button> }.into_any()
                                        } else {
                                            let user = for_link.clone();
                                            view! { <button class="signin-link" disabled=for_link.disabled on:click=move |_| make_link(user.clone(), false)>{t("users.link")}</button> }.into_any()
                                        })}
                                        {if u.is_admin {
                                            view! { <button class="unmake-admin" on:click=move |_| update(id, UserUpdate { is_admin: Some(false), ..Default::default() })>{t("users.unmake_admin")}</button> }.into_any()
                                        } else {
                                            view! { <button class="make-admin" on:click=move |_| update(id, UserUpdate { is_admin: Some(true), ..Default::default() })>{t("users.make_admin")}</button> }.into_any()
                                        }}
                                        {move || (!is_me()).then(|| if u.disabled {
                                            view! { <button class="enable-user" on:click=move |_| update(id, UserUpdate { disabled: Some(false), ..Default::default() })>{t("users.enable")}</button> }.into_any()
                                        } else {
                                            view! { <button class="disable-user danger" on:click=move |_| confirm.set(Some((id, Pending::Disable)))>{t("users.disable")}</button> }.into_any()
                                        })}
                                        {move || confirm.get().filter(|(c, _)| *c == id).map(|(_, what)| {
                                            let question = match &what {
                                                Pending::Reset(_) => t("users.reset_confirm"),
                                                Pending::Disable => t("users.disable_confirm"),
                                            };
                                            view! {
                                                <p class="notice confirm" role="alert">{question}" "
                                                    <button class="confirm-yes danger" on:click=move |_| {
                                                        confirm.set(None);
                                                        match &what {
                                                            Pending::Reset(user) => make_link(user.clone(), true),
                                                            Pending::Disable => update(id, UserUpdate { disabled: Some(true), ..Default::default() }),
                                                        }
                                                    }>{t("users.yes")}</button>" "
                                                    <button class="confirm-no" on:click=move |_| confirm.set(None)>{t("team.cancel")}</button>
                                                </p>
                                            }
                                        })}
                                        {move || row_error.get().filter(|(u, _)| *u == id).map(|(_, e)| view! { <p class="error" role="alert">{e}</p> })}
                                    </td>
                                </tr>
                            }
                        }
                    </For>
                </tbody>
            </table>
            </div>
            <h3>{t("users.new")}</h3>
            <form id="new-user" class="form-grid" on:submit=create>
                <label>{t("team.user")}
                    <input id="new-user-name" required maxlength="64" pattern="[A-Za-z0-9._@\\-]+" autocomplete="off"
                        title=t("users.name_rule")
                        prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) /></label>
                <label>{t("users.display_name")}
                    <input id="new-user-display" maxlength="100" prop:value=move || display.get()
                        on:input=move |ev| display.set(event_target_value(&ev)) /></label>
                <label>{t("users.password_optional")}
                    <input id="new-user-password" type="password" minlength="8" autocomplete="new-password"
                        prop:value=move || password.get() on:input=move |ev| password.set(event_target_value(&ev)) /></label>
                <label>{t("users.join_team")}
                    <select id="new-user-team" on:change=move |ev| join_team.set(event_target_value(&ev))>
                        {move || all_teams.get().into_iter().map(|tm| {
                            let selected = join_team.get_untracked() == tm.id.to_string();
                            view! { <option value=tm.id.to_string() selected=selected>{tm.name}</option> }
                        }).collect_view()}
                        <option value="" selected=move || join_team.get().is_empty()>{t("users.no_team")}</option>
                    </select></label>
                <label>{t("team.role")}
                    <RoleSelect initial=Role::Editor id="new-user-role" on_pick=move |r| join_role.set(r) /></label>
                <label class="check"><input id="new-user-admin" type="checkbox" prop:checked=move || admin.get()
                    on:change=move |ev| admin.set(event_target_checked(&ev)) />{t("users.make_admin_new")}</label>
                <p class="muted">{t("users.new_hint")}</p>
                <div><button type="submit" id="new-user-submit" disabled=move || creating.get()>{t("users.create")}</button></div>
                {move || create_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                {move || created.get().map(|n| view! { <p class="ok" role="status" id="new-user-done">{move || crate::i18n::tr("users.created", crate::i18n::use_lang().get()).replace("{name}", &n)}</p> })}
            </form>
        </section>
    }
}

/// What a row's confirmation is for.
#[derive(Clone, PartialEq)]
enum Pending {
    /// Reset this user's password (their sessions end; a new link is made).
    Reset(User),
    Disable,
}

/// A sign-in link just made, to hand over: the URL, a Copy button, when it expires.
#[component]
fn SigninLinkBox(who: String, link: SigninLink) -> impl IntoView {
    view! {
        <div class="notice" id="signin-link-box" role="status">
            <p>{t("users.link_for")}" "<strong>{who}</strong>" "{t("users.link_once")}</p>
            <p><code id="signin-link-url" class="wrap">{link.url.clone()}</code></p>
            <p>
                <crate::components::import_export::CopyButton text=link.url.clone() />
                " "<span class="muted">{t("users.link_expires")}" "<crate::components::states::When at=link.expires_at.clone() /></span>
            </p>
        </div>
    }
}
