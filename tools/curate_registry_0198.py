import json
p='shared/data/keys.json'
keys=json.load(open(p))
by={k['path']:k for k in keys}
rem=json.load(open('/tmp/removed.json'))
def add(entry, after=None):
    keys.append(entry); by[entry['path']]=entry
for k,msg in rem['top'].items():
    if k not in by: add({"path":k,"type":["any"],"mode":"lax","source":"deepspeed/runtime/config.py:_REMOVED_TOP_LEVEL_CONFIG_KEYS"})
    by[k]['removed']=msg
for k,msg in rem['zero'].items():
    by['zero_optimization.'+k]['removed']=msg
add({"path":"disable_python_gc","type":["int"],"nullable":True,"default":None,"default_text":"None","mode":"lax","source":"deepspeed/runtime/constants.py (0.19.8)","notes":"lax; new in 0.19.8"})
add({"path":"data_types.keep_in_fp32_modules","type":["array","auto"],"default":"auto","default_text":"\"auto\"","mode":"lax","source":"deepspeed/runtime/config.py (0.19.8)","notes":"lax; must be \"auto\" or a list of name patterns (DeepSpeedConfigError otherwise)"})
add({"path":"timers.throughput","type":["object"],"default":{},"mode":"lax","children":"closed","source":"deepspeed/utils/config.py"})
for k in ('tensor_parallel.tp.mpu','tensor_parallel.tp.tp_group'):
    by[k]['type']=['any']; by[k].pop('children',None)
by['tensor_parallel.tensor_parallel']['children']='closed'
dep={
 'zero_optimization.cpu_offload':('zero_optimization.offload_optimizer',[{"op":"remove","path":"{ptr}"},{"op":"add","path":"{parent}/offload_optimizer","value":{"device":"cpu"}}]),
 'zero_optimization.cpu_offload_param':('zero_optimization.offload_param',[{"op":"remove","path":"{ptr}"},{"op":"add","path":"{parent}/offload_param","value":{"device":"cpu"}}]),
 'zero_optimization.cpu_offload_use_pin_memory':(None,[{"op":"remove","path":"{ptr}"}]),
 'zero_optimization.stage3_gather_fp16_weights_on_model_save':('zero_optimization.stage3_gather_16bit_weights_on_model_save',None),
 'bfloat16':('bf16',None),
}
for k,(r,fix) in dep.items():
    e=by[k]; e['deprecated']=True
    if r: e['replaced_by']=r
    if fix: e['fix']=fix
s3=['prefetch_bucket_size','param_persistence_threshold','model_persistence_threshold','max_live_parameters','max_reuse_distance','gather_16bit_weights_on_model_save','module_granularity_threshold','use_all_reduce_for_fetch_params','allgather_sequential']
for f in s3:
    for k in ('zero_optimization.'+f,'zero_optimization.stage3_'+f):
        by[k]['stage3_only']=True
by['zero_optimization.offload_param']['stage3_only']=True
by['zero_optimization.stage']['enum']=['0','1','2','3']
by['zero_optimization.stage']['type']=['int']
for k,case in {'communication_data_type':'lower','seq_parallel_communication_data_type':'lower','gradient_allreduce_op':'lower','checkpoint.tag_validation':'upper','checkpoint.writer.type':'upper','checkpoint.writer.data_parallel':'upper','log_level':'lower'}.items():
    by[k]['enum_case']=case
by['checkpoint.tag_validation']['enum']=['IGNORE','WARN','FAIL']
by['checkpoint.writer.type']['enum']=['MOCK','PYTHON','FAST']
by['checkpoint.writer.data_parallel']['enum']=['REPLICA','SOCKET','MACHINE']
by['torch_autocast.dtype']['enum']=by['torch_autocast.dtype'].get('enum') or "torch.float16|fp16|float16|half|torch.float32|fp32|float32|float|torch.int8|int8|torch.bfloat16|bf16|bfloat16".split('|')
for k in keys:
    if k['path'].endswith('.device') and 'offload' in k['path']:
        k['enum']=['none','cpu','nvme']
json.dump(keys, open(p,'w'))
with open(p,'w') as f:
    f.write("[\n" + ",\n".join(json.dumps(k, ensure_ascii=False) for k in keys) + "\n]\n")
print(len(keys))
