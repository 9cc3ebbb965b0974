"""`exchange products allocation`: a sale's or listing's allocation as stored, beside the one the rule
(store.earn.allocation) gives from the stored subscriptions or applications, and whether they match."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from store.money import money as m


@dataclass
class Report:
    lines: list[str] = field(default_factory=list)
    matches: bool | None = None  # None: not allocated yet, nothing stored to compare


def _utc(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S")


def _verdict(report: Report, allocated_at: int | None, matches: bool) -> Report:
    if allocated_at is None:
        report.lines.append("not allocated yet: the recomputed columns are what it would get if it closed now")
        return report
    report.matches = matches
    report.lines.append("recomputed from the stored rows: " + ("matches" if matches else "DOES NOT match"))
    return report


async def gather(product_id: int, of_listing: bool) -> Report:
    return await (_listing(product_id) if of_listing else _sale(product_id))


async def _sale(sale_id: int) -> Report:
    from store.earn import sales
    from store.models import SaleSubscription, TokenSale

    sale = await TokenSale.get_or_none(id=sale_id).prefetch_related("huodong", "jieshou")
    if sale is None:
        raise LookupError(f"no sale {sale_id}")
    subs = await SaleSubscription.filter(sale_id=sale_id).order_by("id").prefetch_related("user")
    found = sales.allocate(sale, subs)
    token, asset = sale.huodong.code, sale.jieshou.code
    closed = f"closed at {_utc(sale.allocated_at)}" if sale.allocated_at else f"ends {_utc(sale.etime)}"
    report = Report([
        f"sale {sale.id} {sale.title!r}: {m(sale.total)} {token} at {m(sale.rengou)} {asset} (step "
        f"{m(sales.sale_step(sale))}), {m(found.asked)} asked by {len(subs)} subscriptions, {closed}",
        "subscription\tuser\tasked\tlocked\tallocated\tcost\trefunded\tstatus\trecomputed: allocated\tcost\trefunded",
    ])  # fmt: skip
    matches = True
    for sub in subs:
        line = found.line(sub.id)
        stored = (sub.allocated, sub.cost, sub.refunded)
        matches = matches and stored == (line.allocated, line.cost, line.refund)
        report.lines.append(
            f"{sub.id}\t{sub.user.email or sub.user.mobile}\t{m(sub.nums)}\t{m(sub.locked)}\t{m(sub.allocated)}"
            f"\t{m(sub.cost)}\t{m(sub.refunded)}\t{sub.status}\t{m(line.allocated)}\t{m(line.cost)}\t{m(line.refund)}"
        )
    report.lines.append(
        f"issued {m(found.issued)} {token}, dust {m(found.dust)} {token} (never issued: stays with the house), "
        f"proceeds {m(found.proceeds)} {asset}"
    )
    return _verdict(report, sale.allocated_at, matches)


async def _listing(project_id: int) -> Report:
    from store.earn import listing
    from store.models import ListingApplication, ListingProject

    project = await ListingProject.get_or_none(id=project_id).prefetch_related("bizhong")
    if project is None:
        raise LookupError(f"no listing {project_id}")
    apps = await ListingApplication.filter(project_id=project_id).order_by("id").prefetch_related("user")
    lines = {line.id: line for line in listing.allocate_rows(project, apps, (await listing.usdt()).decimals)}
    token = project.bizhong.code
    state = f"allocated at {_utc(project.allocated_at)}" if project.allocated_at else f"ends {_utc(project.etime)}"
    report = Report([
        f"listing {project.id} {project.title!r}: {m(project.shengyu)} {token} for applicants at {m(project.price)} "
        f"USDT, {m(project.applied)} USDT applied by {len(apps)} applications, {state}",
        "application\tuser\tapplied\twon\tfor USDT\tstatus\trecomputed: won\tfor USDT",
    ])  # fmt: skip
    matches = True
    for app in apps:
        line = lines[app.id]
        matches = matches and (app.won_tokens, app.won_usdt) == (line.won_tokens, line.won_usdt)
        report.lines.append(
            f"{app.id}\t{app.user.email or app.user.mobile}\t{m(app.nums)}\t{m(app.won_tokens)}\t{m(app.won_usdt)}"
            f"\t{app.status}\t{m(line.won_tokens)}\t{m(line.won_usdt)}"
        )
    won = sum((line.won_tokens for line in lines.values()), start=project.shengyu * 0)
    report.lines.append(f"won {m(won)} of {m(project.shengyu)} {token}; the rest is never issued")
    return _verdict(report, project.allocated_at, matches)
