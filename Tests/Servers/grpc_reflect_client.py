"""A gRPC client nobody at Fathom wrote, reading a server by reflection: Python grpcio-reflection's
ProtoReflectionDescriptorDatabase (grpc.reflection.v1alpha) builds the descriptors, and protobuf's
dynamic messages make a call with them. The oracle for Fathom's own reflection service.

  grpc_reflect_client.py HOST:PORT SERVICE METHOD REQUEST_JSON

Prints one JSON object: the services listed, the method's input and output types with their fields,
and the answer to the call as json_format writes it (or its status when it fails).
"""
import json
import sys

import grpc
from google.protobuf import descriptor_pool, json_format, message_factory
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

target, service_name, method_name, request_json = sys.argv[1:5]
channel = grpc.insecure_channel(target)
database = ProtoReflectionDescriptorDatabase(channel)
pool = descriptor_pool.DescriptorPool(database)
service = pool.FindServiceByName(service_name)
method = service.FindMethodByName(method_name)
request_class = message_factory.GetMessageClass(method.input_type)
response_class = message_factory.GetMessageClass(method.output_type)
call = channel.unary_unary(
    f"/{service.full_name}/{method.name}",
    request_serializer=lambda message: message.SerializeToString(),
    response_deserializer=response_class.FromString,
)
result = {
    "services": sorted(database.get_services()),
    "input": method.input_type.full_name,
    "output": method.output_type.full_name,
    "output_fields": [field.json_name for field in method.output_type.fields],
}
try:
    answer = call(json_format.Parse(request_json, request_class()), timeout=10)
    result["answer"] = json.loads(json_format.MessageToJson(answer))
except grpc.RpcError as error:
    result["status"] = error.code().name
    result["message"] = error.details()
print(json.dumps(result, sort_keys=True))
