//! Counters, registers and meters of `janus ctrl cli`: P4Runtime
//! CounterEntry / DirectCounterEntry, RegisterEntry, MeterEntry /
//! DirectMeterEntry. For a direct counter or meter, runtime_CLI's index is
//! the entry handle of the table it is bound to (as bmv2's).

use super::tables::{direct_entry, entries};
use super::{CmdResult, Refused, Session, at_least, bad_name, exactly, uin};
use crate::client::schema;
use crate::client::values;
use crate::proto::p4::v1 as p4;
use p4::entity::Entity as E;

fn counter_error(r: &Refused) -> String {
    format!("Invalid counter operation (ERROR) - {}", r.message)
}

fn register_error(r: &Refused) -> String {
    format!("Invalid register operation (ERROR) - {}", r.message)
}

fn meter_error(r: &Refused) -> String {
    format!("Invalid meter operation (ERROR) - {}", r.message)
}

fn index(text: &str) -> Result<i64, String> {
    text.parse().map_err(|_| uin("Bad format for index"))
}

fn handle(text: &str) -> Result<u32, String> {
    text.parse().map_err(|_| uin("Bad format for index"))
}

/// A counter by name: indexed (its id) or direct (its table's id).
enum Counter {
    Indexed(u32),
    Direct(u32),
}

fn counter(s: &Session, name: &str) -> Result<Counter, String> {
    if let Ok(c) = s.schema().counter(name) {
        return Ok(Counter::Indexed(schema::id_of(c.preamble.as_ref())));
    }
    match s.schema().direct_counter(name) {
        Ok(c) => Ok(Counter::Direct(c.direct_table_id)),
        Err(_) => Err(bad_name("counter", name)),
    }
}

/// Runs a counter, register or meter command; None when `cmd` is not one.
pub async fn run(s: &mut Session, cmd: &str, args: &[&str]) -> Option<CmdResult> {
    Some(match cmd {
        "counter_read" => counter_read(s, args).await,
        "counter_write" => counter_write(s, args).await,
        "counter_reset" => counter_reset(s, args).await,
        "register_read" => register_read(s, args).await,
        "register_write" => register_write(s, args).await,
        "register_reset" => register_reset(s, args).await,
        "meter_set_rates" => meter_set_rates(s, args).await,
        "meter_array_set_rates" => meter_array_set_rates(s, args).await,
        "meter_get_rates" => meter_get_rates(s, args).await,
        _ => return None,
    })
}

fn table_name(s: &Session, id: u32) -> String {
    s.schema().table_name(id)
}

async fn counter_read(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 2)?;
    let name = args[0];
    let c = counter(s, name)?;
    let i = index(args[1])?;
    let filter = match c {
        Counter::Indexed(id) => E::CounterEntry(p4::CounterEntry {
            counter_id: id,
            index: Some(p4::Index { index: i }),
            data: None,
        }),
        Counter::Direct(t) => {
            s.say(format!(
                "this is the direct counter for table {}",
                table_name(s, t)
            ));
            let h = handle(args[1])?;
            let e = direct_entry(s, t, h).await?;
            E::DirectCounterEntry(p4::DirectCounterEntry {
                table_entry: Some(e),
                data: None,
            })
        }
    };
    let data = s
        .read_first(
            p4::Entity {
                entity: Some(filter),
            },
            |e| match e {
                E::CounterEntry(c) => c.data,
                E::DirectCounterEntry(c) => c.data,
                _ => None,
            },
        )
        .await
        .map_err(|r| counter_error(&r))?
        .unwrap_or_default();
    s.say(format!(
        "{name}[{i}]= ({} bytes, {} packets)",
        data.byte_count, data.packet_count
    ));
    Ok(())
}

/// The entries of table `t` a direct resource's command names: the one
/// with handle `i`, or all.
async fn direct_targets(
    s: &mut Session,
    t: u32,
    i: Option<i64>,
) -> Result<Vec<p4::TableEntry>, String> {
    match i {
        Some(h) => Ok(vec![direct_entry(s, t, h as u32).await?]),
        None => entries(s, t).await,
    }
}

/// Modifies each of `entities`, stopping at the first refusal (`error`
/// words it).
async fn modify_all(s: &mut Session, entities: Vec<E>, error: fn(&Refused) -> String) -> CmdResult {
    for e in entities {
        s.write(p4::update::Type::Modify, p4::Entity { entity: Some(e) })
            .await
            .map_err(|r| error(&r))?;
    }
    Ok(())
}

async fn write_counter(
    s: &mut Session,
    c: &Counter,
    i: Option<i64>,
    data: p4::CounterData,
) -> CmdResult {
    let entities = match c {
        Counter::Indexed(id) => vec![E::CounterEntry(p4::CounterEntry {
            counter_id: *id,
            index: i.map(|index| p4::Index { index }),
            data: Some(data),
        })],
        Counter::Direct(t) => direct_targets(s, *t, i)
            .await?
            .into_iter()
            .map(|e| {
                E::DirectCounterEntry(p4::DirectCounterEntry {
                    table_entry: Some(e),
                    data: Some(data),
                })
            })
            .collect(),
    };
    modify_all(s, entities, counter_error).await
}

async fn counter_write(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 4)?;
    let name = args[0];
    let c = counter(s, name)?;
    let i = index(args[1])?;
    let packets: i64 = args[2].parse().map_err(|_| uin("Bad format for packets"))?;
    let bytes: i64 = args[3].parse().map_err(|_| uin("Bad format for bytes"))?;
    if let Counter::Direct(t) = c {
        s.say(format!(
            "writing to direct counter for table {}",
            table_name(s, t)
        ));
    }
    let data = p4::CounterData {
        byte_count: bytes,
        packet_count: packets,
    };
    write_counter(s, &c, Some(i), data).await?;
    s.say(format!("{name}[{i}] has been updated"));
    Ok(())
}

async fn counter_reset(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 1)?;
    let c = counter(s, args[0])?;
    if let Counter::Direct(t) = c {
        s.say(format!(
            "this is the direct counter for table {}",
            table_name(s, t)
        ));
    }
    write_counter(s, &c, None, p4::CounterData::default()).await
}

/// A register's id and cell width.
fn register(s: &Session, name: &str) -> Result<(u32, u32), String> {
    use crate::proto::p4::config::v1::p4_bitstring_like_type_spec::TypeSpec as B;
    use crate::proto::p4::config::v1::p4_data_type_spec::TypeSpec;
    let r = s
        .schema()
        .register(name)
        .map_err(|_| bad_name("register", name))?;
    let width = match r.type_spec.as_ref().and_then(|t| t.type_spec.as_ref()) {
        Some(TypeSpec::Bitstring(b)) => match &b.type_spec {
            Some(B::Bit(x)) => x.bitwidth,
            Some(B::Int(x)) => x.bitwidth,
            Some(B::Varbit(x)) => x.max_bitwidth,
            None => 128,
        },
        _ => 128,
    };
    Ok((schema::id_of(r.preamble.as_ref()), width.max(1) as u32))
}

/// A register cell as runtime_CLI prints it (decimal).
fn cell(data: Option<&p4::P4Data>) -> String {
    match data.and_then(|d| d.data.as_ref()) {
        Some(p4::p4_data::Data::Bitstring(b)) => values::render(b, values::Style::Number),
        _ => "0".to_string(),
    }
}

async fn register_read(s: &mut Session, args: &[&str]) -> CmdResult {
    at_least(args, 1)?;
    let name = args[0];
    let (id, _) = register(s, name)?;
    let i = if args.len() > 1 {
        exactly(args, 2)?;
        Some(index(args[1])?)
    } else {
        eprintln!("register index omitted, reading entire array");
        None
    };
    let filter = p4::Entity {
        entity: Some(E::RegisterEntry(p4::RegisterEntry {
            register_id: id,
            index: i.map(|index| p4::Index { index }),
            data: None,
        })),
    };
    let mut cells: Vec<(i64, String)> = s
        .read(filter)
        .await
        .map_err(|r| register_error(&r))?
        .into_iter()
        .filter_map(|e| match e.entity {
            Some(E::RegisterEntry(r)) => {
                Some((r.index.map_or(0, |x| x.index), cell(r.data.as_ref())))
            }
            _ => None,
        })
        .collect();
    cells.sort_by_key(|(i, _)| *i);
    match i {
        Some(i) => {
            let v = cells.first().map_or("0".to_string(), |(_, v)| v.clone());
            s.say(format!("{name}[{i}]= {v}"));
        }
        None => {
            let vs: Vec<String> = cells.into_iter().map(|(_, v)| v).collect();
            s.say(format!("{name}= {}", vs.join(", ")));
        }
    }
    Ok(())
}

async fn write_register(s: &mut Session, id: u32, i: Option<i64>, v: Vec<u8>) -> CmdResult {
    let e = p4::Entity {
        entity: Some(E::RegisterEntry(p4::RegisterEntry {
            register_id: id,
            index: i.map(|index| p4::Index { index }),
            data: Some(p4::P4Data {
                data: Some(p4::p4_data::Data::Bitstring(v)),
            }),
        })),
    };
    s.write(p4::update::Type::Modify, e)
        .await
        .map_err(|r| register_error(&r))
}

async fn register_write(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 3)?;
    let (id, width) = register(s, args[0])?;
    let i = index(args[1])?;
    let v = values::parse(args[2], width)
        .map_err(|e| uin(format!("Bad format for value, must be an integer ({e})")))?;
    write_register(s, id, Some(i), v).await
}

async fn register_reset(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 1)?;
    let (id, _) = register(s, args[0])?;
    write_register(s, id, None, vec![0]).await
}

/// A meter by name: indexed (its id) or direct (its table's id).
enum Meter {
    Indexed(u32),
    Direct(u32),
}

fn meter(s: &Session, name: &str) -> Result<Meter, String> {
    if let Ok(m) = s.schema().meter(name) {
        return Ok(Meter::Indexed(schema::id_of(m.preamble.as_ref())));
    }
    match s.schema().direct_meter(name) {
        Ok(m) => Ok(Meter::Direct(m.direct_table_id)),
        Err(_) => Err(bad_name("meter", name)),
    }
}

/// `RATE:BURST` pairs (units per microsecond, units): the P4Runtime
/// config (units per second). bmv2's meters take two, committed then peak.
fn rates(words: &[&str]) -> Result<p4::MeterConfig, String> {
    if words.len() != 2 {
        return Err(uin(format!(
            "Invalid number of rates, expected 2 but got {}",
            words.len()
        )));
    }
    let mut out = Vec::new();
    for w in words {
        let (r, b) = w
            .split_once(':')
            .and_then(|(r, b)| Some((r.parse::<f64>().ok()?, b.parse::<i64>().ok()?)))
            .filter(|(r, b)| *r >= 0.0 && r.is_finite() && *b >= 0)
            .ok_or_else(|| uin("Error while parsing rates"))?;
        out.push(((r * 1e6).round() as i64, b));
    }
    Ok(p4::MeterConfig {
        cir: out[0].0,
        cburst: out[0].1,
        pir: out[1].0,
        pburst: out[1].1,
        eburst: 0,
    })
}

async fn write_meter(
    s: &mut Session,
    m: &Meter,
    i: Option<i64>,
    config: p4::MeterConfig,
) -> CmdResult {
    let entities = match m {
        Meter::Indexed(id) => vec![E::MeterEntry(p4::MeterEntry {
            meter_id: *id,
            index: i.map(|index| p4::Index { index }),
            config: Some(config),
            counter_data: None,
        })],
        Meter::Direct(t) => direct_targets(s, *t, i)
            .await?
            .into_iter()
            .map(|e| {
                E::DirectMeterEntry(p4::DirectMeterEntry {
                    table_entry: Some(e),
                    config: Some(config),
                    counter_data: None,
                })
            })
            .collect(),
    };
    modify_all(s, entities, meter_error).await
}

async fn meter_set_rates(s: &mut Session, args: &[&str]) -> CmdResult {
    at_least(args, 2)?;
    let m = meter(s, args[0])?;
    let i = index(args[1])?;
    let config = rates(&args[2..])?;
    write_meter(s, &m, Some(i), config).await
}

async fn meter_array_set_rates(s: &mut Session, args: &[&str]) -> CmdResult {
    at_least(args, 1)?;
    let m = meter(s, args[0])?;
    let config = rates(&args[1..])?;
    write_meter(s, &m, None, config).await
}

/// Python's `str(float)` for the rates runtime_CLI prints.
fn py_float(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e16 {
        format!("{v:.1}")
    } else {
        format!("{v}")
    }
}

async fn meter_get_rates(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 2)?;
    let m = meter(s, args[0])?;
    let i = index(args[1])?;
    let filter = match m {
        Meter::Indexed(id) => E::MeterEntry(p4::MeterEntry {
            meter_id: id,
            index: Some(p4::Index { index: i }),
            ..Default::default()
        }),
        Meter::Direct(t) => E::DirectMeterEntry(p4::DirectMeterEntry {
            table_entry: Some(direct_entry(s, t, i as u32).await?),
            ..Default::default()
        }),
    };
    let config = s
        .read_first(
            p4::Entity {
                entity: Some(filter),
            },
            |e| match e {
                E::MeterEntry(m) => m.config,
                E::DirectMeterEntry(m) => m.config,
                _ => None,
            },
        )
        .await
        .map_err(|r| meter_error(&r))?
        .unwrap_or_default();
    let pairs = [(config.cir, config.cburst), (config.pir, config.pburst)];
    for (n, (rate, burst)) in pairs.iter().enumerate() {
        s.say(format!(
            "{n}: info rate = {}, burst size = {burst}",
            py_float(*rate as f64 / 1e6)
        ));
    }
    Ok(())
}
